#pragma once
// --search, held as its enum: hill climbing (a beam of one), CN2's beam search (search/beam_search.hpp), or
// layered search (search/layered_search.hpp). A header of its own, so that the learners' options
// (learn/params.hpp) name the kind without the search's declarations.
#include "candor/util/names.hpp"

namespace candor {

enum class SearchKind { greedy, beam, layered };
inline constexpr Named<SearchKind> kSearchNames[] = {
    {"greedy", SearchKind::greedy}, {"beam", SearchKind::beam}, {"layered", SearchKind::layered}};

}  // namespace candor
