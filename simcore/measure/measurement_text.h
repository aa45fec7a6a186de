#pragma once
// What a measurement says, in words: the text `dtsim-cli calibrate` prints and the app's
// File > Import measurements shows.
#include "nccl_tests.h"
#include "profile_summary.h"

#include <string>

namespace dtsim {

std::string profileText(const KinetoTrace& t, const ProfileSummary& s);
std::string ncclTestsText(const NcclTestsLog& log, const NcclFit& fit);

} // namespace dtsim
