#include "candor/quality/measures.hpp"

template class candor::ScoredBySAndN<candor::measures::WRAcc>;
