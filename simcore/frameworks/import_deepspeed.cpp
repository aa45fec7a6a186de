// DeepSpeed's JSON -> batch, ZeRO stage, precision and gradient reduction. DeepSpeed
// states the batch three ways (global, per GPU, accumulation) and needs
// global = micro x accumulation x data-parallel ranks; the GPU count decides the last,
// so a batch given only as micro x accumulation becomes a global batch once the plan is
// known. "auto" (filled in by the Hugging Face Trainer) is listed, not guessed.
#include "framework_keys.h"
#include "import_context.h"

namespace dtsim {

namespace {

// A key of DeepSpeed's config, or inside one of its free-form sections (an optimizer's
// or a scheduler's own parameters).
bool deepspeedKey(const std::string& key)
{
    if (tableHasKey(deepspeedKeyTable(), key))
        return true;
    for (const char* freeForm : { "optimizer.params.", "scheduler.params.", "zero_optimization.offload_optimizer.", "zero_optimization.offload_param." })
        if (key.rfind(freeForm, 0) == 0)
            return true;
    return false;
}

} // namespace

void importDeepSpeed(ImportContext& c)
{
    const ConfigDocument& d = c.doc;
    const bool offloadOptimizer = [&] {
        const ConfigValue* v = d.find("zero_optimization.offload_optimizer.device");
        const ConfigValue* legacy = d.find("zero_optimization.cpu_offload");
        return (v && v->text != "none") || (legacy && c.flag(*legacy));
    }();
    for (const ConfigValue& v : d.values)
        c.traced(v, "read: the same as dtsim's default", [&] {
            const std::string& k = v.key;
            if (!deepspeedKey(k))
                c.unknown(v, "DeepSpeed's configuration (tests/frameworks/deepspeed/KEYS.md)");
            if (v.text == "auto") {
                c.note(v, "\"auto\": the Hugging Face Trainer fills it in at launch; set it in the scenario");
                return;
            }
            auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
            if (k == "train_batch_size") set("training.global_batch", std::to_string(c.integer(v)));
            else if (k == "train_micro_batch_size_per_gpu") set("training.micro_batch", std::to_string(c.integer(v)));
            else if (k == "gradient_accumulation_steps") {
                const ConfigValue* global = d.find("train_batch_size");
                if (!global || global->text == "auto")
                    c.set(v, "@accumulation", std::to_string(c.integer(v)));
                else
                    c.note(v, "follows from train_batch_size, the micro-batch and the data-parallel ranks (checked when the plan is known)");
            } else if (k == "zero_optimization.stage") {
                const long long stage = c.integer(v, 0);
                if (stage > 3) c.refuse(v, "ZeRO stages are 0 to 3");
                set("parallel.zero", std::to_string(stage));
            } else if (k == "zero_optimization.overlap_comm") set("parallel.overlap_grad_reduce", c.flag(v) ? "true" : "false");
            else if (k == "zero_optimization.cpu_offload" || k.rfind("zero_optimization.offload_optimizer", 0) == 0
                || k.rfind("zero_optimization.offload_param", 0) == 0) {
                if (k.find("device") != std::string::npos || k == "zero_optimization.cpu_offload")
                    c.note(v, offloadOptimizer || k.find("offload_param") != std::string::npos
                            ? "offloading to CPU or NVMe is not modelled yet: dtsim prices the step with states on the GPU"
                            : "no offload");
            } else if (k == "fp16.enabled") { if (c.flag(v)) set("training.precision", "fp16"); }
            else if (k == "bf16.enabled") { if (c.flag(v)) set("training.precision", "bf16"); }
            else if (k == "communication_data_type") {
                const std::string t = lowerText(c.text(v));
                if (t == "fp16" || t == "bf16" || t == "fp32") set("training.grad_reduce", t);
                else c.refuse(v, "DeepSpeed's choices are fp16, bf16 and fp32");
            } else if (k == "optimizer.type") {
                const std::string t = lowerText(c.text(v));
                if (t.find("adam") != std::string::npos || t == "lamb") set("training.optimizer", "adam");
                else if (t == "sgd") set("training.optimizer", "sgd");
                else c.note(v, "an optimizer dtsim prices as Adam (two states a parameter)"), set("training.optimizer", "adam");
            } else if (k.rfind("activation_checkpointing", 0) == 0) {
                if ((k.find("partition_activations") != std::string::npos || k.find("cpu_checkpointing") != std::string::npos) && c.flag(v))
                    c.note(v, "DeepSpeed's activation partitioning/offload is not modelled; recomputation itself is set by the training script "
                              "(Megatron's --checkpoint-activations)");
                else
                    c.note(v, "a detail of DeepSpeed's activation checkpointing that does not change the work");
            } else
                c.note(v, "not part of a training step's time, memory or traffic in dtsim");
        });
}

} // namespace dtsim
