#include "scenario_writer.h"

#include "exact_number.h"
#include "cost_loader.h"
#include "reliability_loader.h"
#include "workload_loader.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <string>

namespace dtsim {

namespace {

std::string exact(double v) { return exactNumber(v); }
std::string withUnit(double v, const char* unit) { return exactWithUnit(v, unit); }

const char* normName(NormKind n) { return n == NormKind::RmsNorm ? "rmsnorm" : "layernorm"; }
const char* positionName(PositionKind p) { return p == PositionKind::Learned ? "learned" : "rotary"; }
const char* attentionName(AttentionKernel k)
{
    switch (k) {
    case AttentionKernel::Unfused: return "unfused";
    case AttentionKernel::Flash2: return "flash2";
    case AttentionKernel::Native: return "native";
    }
    return "native";
}

} // namespace

std::string scenarioToYaml(const Scenario& s)
{
    YAML::Emitter y;
    y << YAML::BeginMap;
    y << YAML::Key << "version" << YAML::Value << 1;
    if (!s.name.empty())
        y << YAML::Key << "name" << YAML::Value << s.name;
    if (!s.description.empty())
        y << YAML::Key << "description" << YAML::Value << s.description;

    const ModelSpec& m = s.model;
    y << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
    if (!m.name.empty())
        y << YAML::Key << "name" << YAML::Value << m.name;
    y << YAML::Key << "layers" << YAML::Value << m.layers;
    y << YAML::Key << "hidden" << YAML::Value << m.hidden;
    y << YAML::Key << "heads" << YAML::Value << m.heads;
    y << YAML::Key << "kv_heads" << YAML::Value << m.kvHeads;
    y << YAML::Key << "head_dim" << YAML::Value << m.headDim;
    y << YAML::Key << "ffn_hidden" << YAML::Value << m.ffnHidden;
    y << YAML::Key << "gated_mlp" << YAML::Value << m.gatedMlp;
    y << YAML::Key << "vocab" << YAML::Value << m.vocab;
    y << YAML::Key << "tied_embeddings" << YAML::Value << m.tiedEmbeddings;
    y << YAML::Key << "linear_bias" << YAML::Value << m.linearBias;
    y << YAML::Key << "norm" << YAML::Value << normName(m.norm);
    y << YAML::Key << "position" << YAML::Value << positionName(m.position);
    y << YAML::Key << "dropout" << YAML::Value << m.dropout;
    if (m.isMoe()) {
        y << YAML::Key << "moe" << YAML::Value << YAML::BeginMap;
        y << YAML::Key << "experts" << YAML::Value << m.moe.experts;
        y << YAML::Key << "top_k" << YAML::Value << m.moe.topK;
        y << YAML::Key << "shared_experts" << YAML::Value << m.moe.sharedExperts;
        y << YAML::Key << "expert_ffn_hidden" << YAML::Value << m.moe.expertFfnHidden;
        y << YAML::Key << "first_dense_layers" << YAML::Value << m.moe.firstDenseLayers;
        y << YAML::Key << "layer_interval" << YAML::Value << m.moe.layerInterval;
        y << YAML::Key << "capacity_factor" << YAML::Value << exact(m.moe.capacityFactor);
        if (m.moe.maxNodesPerToken > 0)
            y << YAML::Key << "max_nodes_per_token" << YAML::Value << m.moe.maxNodesPerToken;
        y << YAML::EndMap;
    }
    if (m.isMla()) {
        y << YAML::Key << "mla" << YAML::Value << YAML::BeginMap;
        y << YAML::Key << "q_lora_rank" << YAML::Value << m.mla.qLoraRank;
        y << YAML::Key << "kv_lora_rank" << YAML::Value << m.mla.kvLoraRank;
        y << YAML::Key << "qk_nope_head_dim" << YAML::Value << m.mla.qkNopeDim;
        y << YAML::Key << "qk_rope_head_dim" << YAML::Value << m.mla.qkRopeDim;
        y << YAML::Key << "v_head_dim" << YAML::Value << m.mla.vHeadDim;
        y << YAML::EndMap;
    }
    y << YAML::EndMap;

    const TrainingSpec& t = s.training;
    y << YAML::Key << "training" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "global_batch" << YAML::Value << t.globalBatch;
    y << YAML::Key << "micro_batch" << YAML::Value << t.microBatch;
    y << YAML::Key << "seq_len" << YAML::Value << t.seqLen;
    y << YAML::Key << "tokens" << YAML::Value << exact(t.tokens);
    y << YAML::Key << "precision" << YAML::Value << std::string(precisionName(t.precision));
    if (isScaledLowPrecision(t.precision))
        y << YAML::Key << "scaling" << YAML::Value << std::string(scalingRecipeName(t.scaling));
    y << YAML::Key << "optimizer" << YAML::Value << (t.optimizer == Optimizer::Adam ? "adam" : "sgd");
    y << YAML::Key << "master_weights_fp32" << YAML::Value << t.masterWeightsFp32;
    y << YAML::Key << "grad_reduce" << YAML::Value << std::string(precisionName(t.gradReduce));
    y << YAML::Key << "attention_kernel" << YAML::Value << attentionName(t.attention);
    y << YAML::Key << "fused_kernels" << YAML::Value << t.fusedKernels;
    y << YAML::Key << "graph_capture" << YAML::Value << t.graphCapture;
    if (t.deadline > 0)
        y << YAML::Key << "deadline" << YAML::Value << withUnit(t.deadline, "s");
    y << YAML::EndMap;

    const HardwareSpec& h = s.hardware;
    y << YAML::Key << "hardware" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "gpu" << YAML::Value << h.id;
    y << YAML::Key << "memory" << YAML::Value << withUnit(h.memoryBytes, "B");
    y << YAML::Key << "memory_bandwidth" << YAML::Value << withUnit(h.memoryBandwidth, "B/s");
    if (h.powerLimitWatts > 0)
        y << YAML::Key << "power_limit" << YAML::Value << withUnit(h.powerLimitWatts, "W");
    y << YAML::EndMap;

    const ClusterSpec& c = s.cluster;
    y << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
    if (!c.topology.empty())
        y << YAML::Key << "topology" << YAML::Value << c.topology;
    y << YAML::Key << "gpus" << YAML::Value << c.gpus;
    y << YAML::Key << "gpus_per_node" << YAML::Value << c.gpusPerNode;
    y << YAML::Key << "scale_up_domain" << YAML::Value << c.scaleUpDomain;
    y << YAML::Key << "scale_up_bandwidth" << YAML::Value << withUnit(c.scaleUpBandwidth, "B/s");
    y << YAML::Key << "scale_up_latency" << YAML::Value << withUnit(c.scaleUpLatency, "s");
    y << YAML::Key << "scale_out_bandwidth" << YAML::Value << withUnit(c.scaleOutBandwidth, "B/s");
    y << YAML::Key << "scale_out_latency" << YAML::Value << withUnit(c.scaleOutLatency, "s");
    y << YAML::Key << "scale_up_in_network_reduction" << YAML::Value << c.scaleUpInNetworkReduction;
    if (c.tierCount > 0) {
        y << YAML::Key << "tiers" << YAML::Value << YAML::BeginSeq;
        for (int i = 0; i < c.tierCount; ++i) {
            const NetworkTier& t = c.tiers[i];
            y << YAML::BeginMap;
            if (!t.label().empty())
                y << YAML::Key << "name" << YAML::Value << std::string(t.label());
            y << YAML::Key << "span_gpus" << YAML::Value << t.spanGpus;
            y << YAML::Key << "oversubscription" << YAML::Value << exact(t.oversubscription);
            if (t.uplinkBandwidth > 0)
                y << YAML::Key << "uplink_bandwidth" << YAML::Value << withUnit(t.uplinkBandwidth, "B/s");
            y << YAML::Key << "latency" << YAML::Value << withUnit(t.latency, "s");
            y << YAML::Key << "rail_optimized" << YAML::Value << t.railOptimized;
            y << YAML::Key << "in_network_reduction" << YAML::Value << t.inNetworkReduction;
            y << YAML::EndMap;
        }
        y << YAML::EndSeq;
    }
    y << YAML::EndMap;

    const ParallelPlan& p = s.plan;
    std::string order;
    for (Axis a : p.order)
        order += (order.empty() ? "" : "-") + std::string(axisName(a));
    y << YAML::Key << "parallel" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "tp" << YAML::Value << p.tp;
    y << YAML::Key << "pp" << YAML::Value << p.pp;
    y << YAML::Key << "dp" << YAML::Value << p.dp;
    y << YAML::Key << "cp" << YAML::Value << p.cp;
    y << YAML::Key << "ep" << YAML::Value << p.ep;
    if (p.expertTp > 0)
        y << YAML::Key << "expert_tp" << YAML::Value << p.expertTp;
    y << YAML::Key << "sequence_parallel" << YAML::Value << p.sequenceParallel;
    y << YAML::Key << "schedule" << YAML::Value << std::string(scheduleName(p.schedule));
    y << YAML::Key << "virtual_stages" << YAML::Value << p.virtualStages;
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
        y << YAML::Key << "first_stage_layers" << YAML::Value << p.firstStageLayers;
        y << YAML::Key << "last_stage_layers" << YAML::Value << p.lastStageLayers;
    }
    y << YAML::Key << "zero" << YAML::Value << p.zeroStage;
    y << YAML::Key << "recompute" << YAML::Value << std::string(recomputeName(p.recompute));
    if (p.recomputeLayers > 0)
        y << YAML::Key << "recompute_layers" << YAML::Value << p.recomputeLayers;
    y << YAML::Key << "order" << YAML::Value << order;
    y << YAML::Key << "overlap_grad_reduce" << YAML::Value << p.overlapGradReduce;
    y << YAML::Key << "overlap_param_gather" << YAML::Value << p.overlapParamGather;
    y << YAML::Key << "tp_comm_overlap" << YAML::Value << p.tpCommOverlap;
    if (!p.tpCommOverlapBackward)
        y << YAML::Key << "tp_comm_overlap_backward" << YAML::Value << false;
    if (p.epCommOverlap)
        y << YAML::Key << "overlap_ep_comm" << YAML::Value << true;
    if (p.epNodeDispatch)
        y << YAML::Key << "ep_dispatcher" << YAML::Value << "deepep";
    y << YAML::Key << "tp_2d" << YAML::Value << p.tp2d;
    y << YAML::EndMap;
    writeReliabilitySection(y, s.reliability);
    writeCostSection(y, s.cost);
    writeWorkloadSection(y, s.workload);
    y << YAML::EndMap;
    return std::string(y.c_str()) + "\n";
}

} // namespace dtsim
