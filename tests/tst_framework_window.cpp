// The window's side of issue 42: File > Import framework config (one undo step, an
// error that names the file's line and changes nothing), the parameter panel's model
// catalogue, and a Best plans row copied as each framework's launch configuration.
#include "gui_test_support.h"
#include "widgets/framework_import.h"
#include "widgets/parameter_panel.h"
#include "widgets/plans_tab.h"
#include "widgets/scenario_document.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <QtTest>

using namespace dtsim;
using namespace dtsim::gui;
using namespace dtsim::test;

namespace {
QString frameworks(const char* relative) { return QString::fromStdString(dataPath(std::string("tests/frameworks/") + relative)); }
}

class TestFrameworkWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("dtsim-tests");
        QCoreApplication::setApplicationName("tst_framework_window");
        QStandardPaths::setTestModeEnabled(true);
    }

    void anImportIsOneUndoStep()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("gpt3-175b-a100"));
        ScenarioDocument* doc = w.document();
        const Scenario before = doc->scenario();
        const QString summary = w.frameworkImport()->importFiles({ frameworks("hf/llama-3.1-8b.json"), frameworks("torchtitan/llama3_8b.toml") }, false);
        QVERIFY2(!w.frameworkImport()->lastFailed(), qPrintable(summary));
        const Scenario& s = doc->scenario();
        QCOMPARE(s.model.layers, 32);
        QCOMPARE(s.model.kvHeads, 8);
        QCOMPARE(s.model.vocab, 128256);
        QCOMPARE(s.plan.zeroStage, 3);           // torchtitan's FSDP
        QCOMPARE(s.hardware.id, before.hardware.id); // what the files do not say stays
        QCOMPARE(s.cluster.gpus, before.cluster.gpus);
        QVERIFY(summary.contains("llama3_8b.toml:"));  // each value's line is listed
        doc->undoStack()->undo();
        QVERIFY(doc->scenario() == before);
    }

    void aBadFileChangesNothingAndNamesItsLine()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama2-7b-8xa100"));
        const Scenario before = w.document()->scenario();
        const int undo = w.document()->undoStack()->count();
        QTemporaryDir dir;
        const QString path = dir.filePath("ds.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"train_batch_size\": 64,\n  \"zero_optimisation\": {\"stage\": 3}\n}\n");
        f.close();
        const QString message = w.frameworkImport()->importFiles({ path }, false);
        QVERIFY(w.frameworkImport()->lastFailed());
        QVERIFY2(message.contains(path + ":3: zero_optimisation.stage"), qPrintable(message));
        QVERIFY(w.document()->scenario() == before);
        QCOMPARE(w.document()->undoStack()->count(), undo);
    }

    void theCatalogueReplacesTheModel()
    {
        MainWindow w(appData());
        QVERIFY(w.openPreset("llama3-405b-h100"));
        QComboBox* box = w.panel()->modelCatalogueBox();
        QVERIFY(box->count() > 30);
        const int at = box->findData("mixtral-8x7b");
        QVERIFY(at > 0);
        const Scenario before = w.document()->scenario();
        emit box->activated(at);
        QCOMPARE(w.document()->scenario().model.moe.experts, 8);
        QCOMPARE(w.document()->scenario().model.moe.topK, 2);
        QCOMPARE(box->currentIndex(), 0); // ready for the next choice
        QCOMPARE(w.document()->scenario().plan, before.plan);
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->scenario() == before);
    }

    void aBestPlanCopiesAsEachFramework()
    {
        MainWindow w(appData());
        QVERIFY(laptopWindowOn(w, "llama3-70b-torchtitan-fp8", "plans"));
        PlansTab* plans = w.plansTab();
        QTRY_VERIFY_WITH_TIMEOUT(plans->rowCount() > 0, 30000);
        const QString megatron = plans->rowAs(0, ExportTarget::Megatron);
        QVERIFY(megatron.contains("pretrain_gpt.py") && megatron.contains("--tensor-model-parallel-size"));
        QVERIFY(megatron.contains("--num-layers 80"));
        // torchtitan names this model by its flavor.
        const QString titan = plans->rowAs(0, ExportTarget::Torchtitan);
        QVERIFY2(titan.contains("flavor = \"70B\""), qPrintable(titan));
        QVERIFY(plans->rowAs(0, ExportTarget::DeepSpeed).contains("\"train_batch_size\": 512"));
        QVERIFY(plans->rowAs(0, ExportTarget::NeMo).contains("num_layers: 80"));
    }
};

QTEST_MAIN(TestFrameworkWindow)
#include "tst_framework_window.moc"
