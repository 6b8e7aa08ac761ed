//===- CoordinateSearcher.h - A searcher of the downstream project -*- C++
//-*-===//
//
// A searcher marlmap does not have, registered by the project that embeds
// it: coordinate descent over the map space's parameters.
//
//===----------------------------------------------------------------------===//

#ifndef DOWNSTREAM_COORDINATESEARCHER_H
#define DOWNSTREAM_COORDINATESEARCHER_H

#include "marlmap/Mapper/Registry.h"

/// The registry entry of `coordinate`: random starts, then one parameter at
/// a time redrawn, keeping whatever lowers the objective.
marlmap::SearcherEntry coordinateSearcherEntry();

#endif // DOWNSTREAM_COORDINATESEARCHER_H
