#pragma once
// What the user says about money and carbon: rent or own, the pricing kind, the
// region's grid, and overrides of the shipped prices. Plain values, read from the
// scenario's optional `cost:` section; the defaults come from resources/cost.
#include <string>

namespace dtsim {

enum class Ownership { Rent, Own };
enum class Pricing { OnDemand, Reserved, Spot };
const char* ownershipName(Ownership o);
const char* pricingName(Pricing p);

struct CostSpec {
    Ownership ownership = Ownership::Rent;
    Pricing pricing = Pricing::OnDemand;
    std::string region = "us-average";   // grid carbon intensity
    // Overrides; 0 keeps the shipped figure.
    double gpuHourUsd = 0;               // rent, per GPU-hour
    double gpuPriceUsd = 0;              // own, per GPU
    double electricityUsdPerKwh = 0;
    double pue = 0;
    double gridGramsPerKwh = 0;
    double carbonCapTonnes = 0;          // planner: 0 = no cap

    bool operator==(const CostSpec&) const = default;
};

} // namespace dtsim
