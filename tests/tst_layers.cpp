// Issue 26, part 1: layer-table workloads. Each layer type's physics against figures
// worked by hand, AlexNet's published totals, and file/line/field errors for bad input.
#include "simcore/input_error.h"
#include "simcore/layers/families.h"
#include "simcore/layers/family_parts.h"
#include "simcore/layers/layer_table.h"
#include "simcore/loader/layer_table_loader.h"
#include "test_data.h"

#include <QtTest>

using namespace dtsim;

namespace {

// The built-in families' convolution builder (family_parts.h), unnamed.
Layer conv(long long out, long long k, long long stride = 1, long long pad = 0, long long groups = 1)
{
    return family::conv("", out, k, stride, pad, groups);
}

const char* kHeader = "version: 1\nname: t\nsource: test\ninput: {channels: 3, height: 32, width: 32}\nlayers:\n";

} // namespace

class TestLayers : public QObject {
    Q_OBJECT
private slots:
    void convolution()
    {
        // 3x32x32 in, 16 kernels 3x3 at stride 1, padding 1: 16x32x32 out; each output
        // element a 3x3x3 dot product (27 MACs) plus its bias.
        const LayerEvaluation e = evaluateLayer(conv(16, 3, 1, 1), { 3, 32, 32 });
        QVERIFY(e.error.empty());
        QCOMPARE(e.cost.output, (TensorShape { 16, 32, 32 }));
        QCOMPARE(e.cost.forwardFlops, 2.0 * 16 * 32 * 32 * 27 + 16 * 32 * 32);
        QCOMPARE(e.cost.parameters, 27.0 * 16 + 16);
        QCOMPARE(e.cost.activationElements, 3.0 * 32 * 32);
        // Groups: each output channel sees in/groups channels; stride and no padding shrink.
        const LayerEvaluation g = evaluateLayer(conv(8, 5, 2, 0, 2), { 4, 15, 15 });
        QCOMPARE(g.cost.output, (TensorShape { 8, 6, 6 }));
        QCOMPARE(g.cost.parameters, 5.0 * 5 * 2 * 8 + 8);
        QVERIFY(!evaluateLayer(conv(8, 3, 1, 0, 3), { 4, 15, 15 }).error.empty()); // 3 does not divide 4
        QVERIFY(!evaluateLayer(conv(8, 9), { 4, 5, 5 }).error.empty());             // kernel wider than input
    }

    void otherLayerTypes()
    {
        Layer linear;
        linear.type = LayerType::Linear;
        linear.outChannels = 10;
        const LayerEvaluation fc = evaluateLayer(linear, { 4, 3, 3 }); // flattened: 36 features
        QCOMPARE(fc.cost.output, (TensorShape { 10, 1, 1 }));
        QCOMPARE(fc.cost.forwardFlops, 2.0 * 36 * 10 + 10);
        QCOMPARE(fc.cost.parameters, 36.0 * 10 + 10);
        Layer pool;
        pool.type = LayerType::Pooling;
        pool.kernel = 3;
        pool.stride = 2;
        const LayerEvaluation p = evaluateLayer(pool, { 96, 55, 55 }); // AlexNet's overlapping pooling
        QCOMPARE(p.cost.output, (TensorShape { 96, 27, 27 }));
        QCOMPARE(p.cost.parameters, 0.0);
        QCOMPARE(p.cost.forwardFlops, 96.0 * 27 * 27 * 9);
        Layer norm;
        norm.type = LayerType::Norm;
        QCOMPARE(evaluateLayer(norm, { 64, 8, 8 }).cost.parameters, 128.0); // batch norm: scale and shift
        norm.affine = false;
        QCOMPARE(evaluateLayer(norm, { 64, 8, 8 }).cost.parameters, 0.0);   // local response norm
        QCOMPARE(evaluateLayer(norm, { 64, 8, 8 }).cost.output, (TensorShape { 64, 8, 8 }));
        Layer relu;
        relu.type = LayerType::Elementwise;
        QCOMPARE(evaluateLayer(relu, { 64, 8, 8 }).cost.forwardFlops, 64.0 * 8 * 8);
        Layer table;
        table.type = LayerType::Embedding;
        table.rows = 1000000;
        table.dim = 64;
        table.lookups = 20; // a multi-hot feature, sum-pooled
        const LayerEvaluation emb = evaluateLayer(table, { 1, 1, 1 });
        QCOMPARE(emb.cost.parameters, 64e6);
        QCOMPARE(emb.cost.output, (TensorShape { 64, 1, 1 }));
        QCOMPARE(emb.cost.forwardFlops, 20.0 * 64);
    }

    // The shipped AlexNet against its published figures: about 60 million parameters (the
    // paper); 724 M multiply-adds a 224 x 224 image (worked by hand from the paper's
    // shapes, and the figure the literature quotes); 55, 27, 13 and 6 pixel maps.
    void alexNetTotals()
    {
        const LayerTable t = loadLayerTable(test::dataPath("resources/workloads/alexnet-2012.yaml"));
        const LayerTableCost c = evaluateTable(t);
        QCOMPARE(c.parameters, 60965224.0);
        double macs = 0;
        for (std::size_t i = 0; i < t.layers.size(); ++i)
            if (t.layers[i].type == LayerType::Convolution || t.layers[i].type == LayerType::Linear)
                macs += (c.layers[i].forwardFlops - (t.layers[i].bias ? c.layers[i].output.elements() : 0)) / 2;
        QCOMPARE(macs, 724406816.0);
        QCOMPARE(c.layers[0].output, (TensorShape { 96, 55, 55 }));
        QCOMPARE(c.layers[3].output, (TensorShape { 96, 27, 27 }));
        QCOMPARE(c.layers[7].output, (TensorShape { 256, 13, 13 }));
        QCOMPARE(c.layers[14].output, (TensorShape { 256, 6, 6 }));
        QCOMPARE(c.layers.back().output, (TensorShape { 1000, 1, 1 }));
    }

    void badFilesNameLineAndField_data()
    {
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("line");
        QTest::newRow("unknown type") << "  - {name: a, type: capsule}\n" << "layers[0].type" << 6;
        QTest::newRow("groups do not divide") << "  - {name: a, type: convolution, out_channels: 8, kernel: 3}\n"
                                                 "  - {name: b, type: convolution, out_channels: 9, kernel: 3, groups: 2}\n"
                                              << "layers[1]" << 7;
        QTest::newRow("kernel wider than input") << "  - {name: a, type: pooling, kernel: 40}\n" << "layers[0]" << 6;
        QTest::newRow("a key of another type") << "  - {name: a, type: linear, out_channels: 4, kernel: 3}\n" << "layers[0].kernel" << 6;
        QTest::newRow("no out_channels") << "  - {name: a, type: linear}\n" << "layers[0].out_channels" << 6;
        QTest::newRow("negative padding") << "  - {name: a, type: convolution, out_channels: 4, kernel: 3, padding: -1}\n"
                                          << "layers[0].padding" << 6;
        QTest::newRow("unknown key") << "  - {name: a, type: norm, colour: red}\n" << "layers[0].colour" << 6;
        QTest::newRow("branch from a later layer") << "  - {name: a, type: norm, input: b}\n  - {name: b, type: norm}\n" << "layers[0]" << 6;
        QTest::newRow("residual of another shape") << "  - {name: a, type: convolution, out_channels: 8, kernel: 3}\n"
                                                      "  - {name: b, type: elementwise, residual: input}\n"
                                                   << "layers[1]" << 7;
        QTest::newRow("residual on a norm") << "  - {name: a, type: norm, residual: input}\n" << "layers[0].residual" << 6;
        QTest::newRow("attention without heads") << "  - {name: a, type: convolution, out_channels: 12, kernel: 1}\n"
                                                    "  - {name: b, type: attention}\n"
                                                 << "layers[1].heads" << 7;
        QTest::newRow("interaction of unequal widths") << "  - {name: a, type: linear, out_channels: 4}\n"
                                                          "  - {name: b, type: linear, out_channels: 8, input: input}\n"
                                                          "  - {name: c, type: interaction, inputs: [a, b]}\n"
                                                       << "layers[2]" << 8;
        QTest::newRow("interaction without inputs") << "  - {name: a, type: interaction}\n" << "layers[0].inputs" << 6;
        QTest::newRow("a name used twice") << "  - {name: a, type: norm}\n  - {name: a, type: norm}\n" << "layers[1].name" << 7;
        QTest::newRow("tied to a norm") << "  - {name: a, type: norm}\n  - {name: b, type: convolution, out_channels: 4, kernel: 1, tied: a}\n"
                                        << "layers[1]" << 7;
        QTest::newRow("tied to a table of another size") << "  - {name: e, type: embedding, rows: 5, dim: 3, input: input}\n"
                                                            "  - {name: b, type: convolution, out_channels: 4, kernel: 1, tied: e, input: input}\n"
                                                         << "layers[1]" << 7;
        QTest::newRow("tied on a norm") << "  - {name: a, type: norm, tied: input}\n" << "layers[0].tied" << 6;
        QTest::newRow("pooled on a norm") << "  - {name: a, type: norm, pooled: false}\n" << "layers[0].pooled" << 6;
        QTest::newRow("memory not there") << "  - {name: a, type: attention, heads: 1, memory: b}\n" << "layers[0]" << 6;
    }

    // Attention (bidirectional): Q.K^T and A.V over every pair of positions, 2 x 2 x S^2 x d
    // FLOPs a sample for S positions of width d; its input holds Q, K and V side by side.
    void attention()
    {
        Layer a;
        a.type = LayerType::Attention;
        a.heads = 4;
        const LayerEvaluation e = evaluateLayer(a, { 3 * 64, 7, 7 });
        QVERIFY(e.error.empty());
        QCOMPARE(e.cost.output, (TensorShape { 64, 7, 7 }));
        QCOMPARE(e.cost.forwardFlops, 4.0 * 49 * 49 * 64);
        QCOMPARE(e.cost.parameters, 0.0);
        QVERIFY(!evaluateLayer(a, { 64, 7, 7 }).error.empty());     // not 3 x width
        QVERIFY(!evaluateLayer(a, { 3 * 66, 7, 7 }).error.empty()); // 66 is not a multiple of 4 heads
        a.heads = 0;
        QVERIFY(!evaluateLayer(a, { 3 * 64, 7, 7 }).error.empty());
        // Causal: the half of the scores below the diagonal.
        a.heads = 4;
        a.causal = true;
        QCOMPARE(evaluateLayer(a, { 3 * 64, 7, 7 }).cost.forwardFlops, 2.0 * 49 * 49 * 64);
    }

    // Cross-attention (T5's decoder): 114 queries against the 512 keys and values of the
    // encoder, 4 x 114 x 512 x width FLOPs; the memory must hold 2 x width channels.
    // A sequence embedding keeps one vector a lookup.
    void crossAttentionAndSequenceEmbeddings()
    {
        const char* good = "version: 1\nname: t\nsource: test\ninput: {channels: 64, height: 1, width: 512}\nlayers:\n"
                           "  - {name: kv, type: convolution, out_channels: 128, kernel: 1}\n"
                           "  - {name: tokens, type: embedding, rows: 1000, dim: 64, lookups: 114, pooled: false, input: input}\n"
                           "  - {name: cross, type: attention, heads: 4, memory: kv}\n";
        const LayerTable t = loadLayerTableText(good, "t.yaml");
        const LayerTableCost c = evaluateTable(t);
        QCOMPARE(c.layers[1].output, (TensorShape { 64, 1, 114 }));
        QCOMPARE(c.layers[2].forwardFlops, 4.0 * 114 * 512 * 64);
        QCOMPARE(c.layers[2].keyPositions, 512.0);
        std::string bad = good;
        bad.replace(bad.find("out_channels: 128"), 17, "out_channels: 96");
        try {
            loadLayerTableText(bad, "t.yaml");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("layers[2]"));
        }
        // T5-base: Hugging Face's t5-base has 222,903,552 parameters; the table counts a
        // shift in each of its 62 norms (768 each) and leaves out the two relative
        // position biases (32 x 12 each).
        QCOMPARE(evaluateTable(*builtinLayerTable("t5-base")).parameters, 222903552.0 + 62 * 768 - 2 * 32 * 12);
    }

    // DLRM's dot interaction: the bottom MLP's vector, then every pair's dot product
    // (27 vectors of 128: 128 + 351 features), 2 x 128 FLOPs a pair.
    void interaction()
    {
        const LayerTable t = *builtinLayerTable("dlrm-mlperf");
        const TableShapes shapes = tableShapes(t);
        QCOMPARE(shapes.errorLayer, -1);
        std::size_t at = 0;
        while (t.layers[at].type != LayerType::Interaction)
            ++at;
        QCOMPARE(shapes.outputs[at], (TensorShape { 128 + 27 * 26 / 2, 1, 1 }));
        const LayerTableCost c = evaluateTable(t);
        QCOMPARE(c.layers[at].forwardFlops, 2.0 * 351 * 128);
        QCOMPARE(c.layers[at + 1].parameters, 479.0 * 1024 + 1024); // the top MLP reads it
        // 26 tables of 128-wide rows: 187,767,399 rows in NVIDIA's MLPerf configuration.
        double tables = 0;
        for (std::size_t i = 0; i < t.layers.size(); ++i)
            if (t.layers[i].type == LayerType::Embedding)
                tables += c.layers[i].parameters;
        QCOMPARE(tables, 187767399.0 * 128);
    }

    // The built-in families against their published parameter counts (torchvision's
    // resnet18/50 and vgg16 state_dicts: 11,689,512, 25,557,032 and 138,357,544), and the
    // shipped AlexNet file, the YAML form of the built-in table.
    void builtinTables()
    {
        // ViT-B/16: timm's vit_base_patch16_224 has 86,567,656, of which the class token and
        // the 197 position embeddings (152,064) are not in the table.
        const std::pair<const char*, double> counts[] = { { "resnet-18", 11689512 }, { "resnet-50", 25557032 }, { "vgg-16", 138357544 },
            { "alexnet-2012", 60965224 }, { "vit-b-16", 86567656 - 152064 },
            // kuangliu/pytorch-cifar's ResNet18, the PowerSGD paper's model: 11,173,962.
            { "resnet-18-cifar", 11173962 } };
        for (const auto& [name, params] : counts) {
            const std::optional<LayerTable> t = builtinLayerTable(name);
            QVERIFY2(t.has_value(), name);
            QVERIFY2(tableShapes(*t).errorLayer < 0, name);
            QCOMPARE(evaluateTable(*t).parameters, params);
        }
        // ResNet-50 v1.5: about 4.1 G multiply-adds a 224 x 224 image (He et al. 2016, Table 1: 3.8 x 10^9
        // FLOPs counting multiply-adds for v1; striding the 3x3 convolution adds the rest).
        const double resnetFlops = evaluateTable(*builtinLayerTable("resnet-50")).forwardFlops;
        QVERIFY(resnetFlops > 2 * 4.0e9 && resnetFlops < 2 * 4.2e9);
        // DiT-XL/2 (Peebles and Xie 2023, Table 4: 675 M parameters, 118.64 G "flops", which
        // fvcore counts as multiply-adds): the layers of DiT's models.py come to 674,834,720
        // trainable parameters (its 675,129,632 include the frozen 256 x 1152 sin-cos position
        // embedding), plus the 256-wide row standing in for the timestep's frequencies.
        const LayerTableCost dit = evaluateTable(*builtinLayerTable("dit-xl-2"));
        QCOMPARE(dit.parameters, 674834720.0 + 256);
        QVERIFY(std::fabs(dit.forwardFlops / (2 * 118.64e9) - 1) < 0.005);
        // BERT-large: Hugging Face's BertForPreTraining (bert-large-uncased) has 336,226,108
        // parameters: the encoder's 335,141,888, the MLM head's dense, norm and decoder bias
        // (its weight is tied to the word embeddings) and the next-sentence classifier.
        QCOMPARE(evaluateTable(*builtinLayerTable("bert-large")).parameters, 336226108.0);
        QCOMPARE(evaluateTable(*builtinLayerTable("bert-large-256")).parameters, 336226108.0);
        // Encoder GEMMs: 24 x 12 x 1024^2 multiply-adds a token (2 FLOPs each).
        const double bert = evaluateTable(*builtinLayerTable("bert-large")).forwardFlops;
        QVERIFY(bert > 2 * 24 * 12 * 1024.0 * 1024 * 512 && bert < 1.25 * 2 * 24 * 12 * 1024.0 * 1024 * 512);
        LayerTable file = loadLayerTable(test::dataPath("resources/workloads/alexnet-2012.yaml"));
        LayerTable builtin = *builtinLayerTable("alexnet-2012");
        file.name = builtin.name;
        file.source = builtin.source;
        QVERIFY(file == builtin);
        QVERIFY(!builtinLayerTable("resnet-49"));
    }
    void badFilesNameLineAndField()
    {
        QFETCH(QString, layers);
        QFETCH(QString, field);
        QFETCH(int, line);
        try {
            loadLayerTableText(std::string(kHeader) + layers.toStdString(), "bad.yaml");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
            QCOMPARE(e.line(), line);
            QCOMPARE(QString::fromStdString(e.where()), QString("bad.yaml"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
