// The run's fields: the FLOP budget (a view of the tokens) and the `cost` section.
#include "field_builder.h"
#include "field_tables.h"

#include "../model.h"

namespace dtsim::fields {

namespace {
constexpr double kMaxPue = 3;
} // namespace

void addRunFields(std::vector<FieldDef>& f)
{
    // The same run sized by compute: tokens = budget / model FLOPs per token.
    f.push_back(quantity("training.flop_budget", Dimension::Flop, "FLOP").derivedOnly()
            .access([](const Scenario& s, int) { return s.training.tokens * trainingFlopsPerToken(s.model, s.training.seqLen); },
                [](Scenario& s, double v, int) { s.training.tokens = v / trainingFlopsPerToken(s.model, s.training.seqLen); })
            .panel("Run", "FLOP budget", 1e-3, 1e11, SliderScale::Log,
                "Training compute; sets the tokens to budget / (3 x forward FLOPs per token).")
            .shown("e21 FLOP", 1e21));

    // --- cost: all optional; docs/cost.md explains the model ---------------------
    // Prices and factors left at 0 take the shipped defaults (resources/cost/cost.yaml).
    auto overrideOf = [](std::string path, double CostSpec::*member, std::string byDefault, std::string help) {
        return std::move(quantity(std::move(path), Dimension::Count, "").bind(&Scenario::cost, member).byDefault(std::move(byDefault))
                             .help(std::move(help)).writtenWhen([member](const Scenario& s, int) { return s.cost.*member > 0; }));
    };
    f.push_back(choice("cost.ownership", { { "rent", int(Ownership::Rent) }, { "own", int(Ownership::Own) } })
            .bind(&Scenario::cost, &CostSpec::ownership).byDefault("`rent`").help("pay GPU-hours, or buy (amortized) and pay electricity")
            .panel("Cost", "Rent or own", 0, 1, SliderScale::Linear, "Rent GPU-hours, or buy the cluster and pay its amortized price and its electricity."));
    f.push_back(choice("cost.pricing", { { "on_demand", int(Pricing::OnDemand) }, { "reserved", int(Pricing::Reserved) }, { "spot", int(Pricing::Spot) } })
            .bind(&Scenario::cost, &CostSpec::pricing).byDefault("`on_demand`").help("rental price kind; spot adds preemptions")
            .panel("Cost", "Rental pricing", 0, 2, SliderScale::Linear,
                "Spot is cheapest per hour, but preemptions interrupt the run (the reliability model counts them).")
            .labels({ "on demand", "reserved", "spot" }));
    // The regions come from resources/cost; the panel fills the choices from them.
    f.push_back(Field("cost.region", FieldType::Region).typeText("a region in the cost file").byDefault("`us-average`").help("grid carbon intensity")
            .text([](const Scenario& s, int) { return s.cost.region; }, [](Scenario& s, const std::string& v, int) { s.cost.region = v; })
            .panel("Cost", "Grid region", 0, 0, SliderScale::Linear, "Carbon intensity of the electricity (resources/cost/cost.yaml)."));
    f.push_back(overrideOf("cost.gpu_hour_usd", &CostSpec::gpuHourUsd, "the list price", "rent per GPU-hour")
            .panel("Cost", "Price per GPU-hour (0 = list)", 0, 1000, SliderScale::Linear, "Overrides the shipped rental price of this GPU and pricing kind.")
            .shown("USD", 1));
    f.push_back(overrideOf("cost.gpu_price_usd", &CostSpec::gpuPriceUsd, "the catalogue price", "purchase price per GPU")
            .panel("Cost", "GPU price (0 = catalogue)", 0, 1e6, SliderScale::Linear, "Overrides the catalogue's purchase price of one GPU (owning).")
            .shown("USD", 1));
    f.push_back(overrideOf("cost.electricity_usd_per_kwh", &CostSpec::electricityUsdPerKwh, "0.08", "")
            .panel("Cost", "Electricity (0 = default)", 0, 10, SliderScale::Linear, "Overrides the default 0.08 USD per kWh (U.S. industrial average, 2023).")
            .shown("USD/kWh", 1));
    f.push_back(overrideOf("cost.pue", &CostSpec::pue, "1.2", "facility power / IT power").typeText("number >= 1")
            .check([](const Scenario&, double v, int) {
                // Uptime Institute Global Data Center Survey 2023: average PUE 1.58; the
                // least efficient sites it reports stay under 3.
                return v > 0 && v < 1 ? "a PUE is at least 1 (all the power reaches the IT equipment at best)"
                    : v > kMaxPue     ? "a PUE above 3 is beyond any surveyed data centre (Uptime Institute, 2023: average 1.58)"
                                      : "";
            })
            .panel("Cost", "PUE (0 = default)", 0, kMaxPue, SliderScale::Linear, "Power usage effectiveness: facility power over IT power. 0 uses the default 1.2."));
    f.push_back(overrideOf("cost.grid_g_per_kwh", &CostSpec::gridGramsPerKwh, "the region's", "overrides the region"));
    f.push_back(overrideOf("cost.carbon_cap_tonnes", &CostSpec::carbonCapTonnes, "none", "the cost planner rejects plans above it")
            .panel("Cost", "Carbon cap (0 = none)", 0, 1e9, SliderScale::Linear, "The cost planner rejects plans that emit more than this.")
            .shown("t CO2e", 1));
}

} // namespace dtsim::fields
