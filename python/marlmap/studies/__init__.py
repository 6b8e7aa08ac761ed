"""The studies of marlmap's searchers, each run as
`python3 -m marlmap.studies.NAME` (docs/Python.md, "Studies"):

  search_study     every searcher on the study's layers at equal samples
                   (docs/study/REPORT.md); study_summary derives the
                   figures docs/Search.md quotes from its report
  median_edp       median best EDP of searcher configurations, per layer
  network_race     whole networks at equal wall-clock time
  network_samples  whole networks at equal samples, marl variants
  timeloop_race    marlmap against Timeloop's mapper on its own inputs
  optimum          every searcher's gap to the proven optimum, per layer,
                   on Timeloop's rows and per network (docs/study/OPTIMUM.md)
  train_policy     trains marl's agents on networks into a weights file

The modules they share: workloads (the layers and networks), paths (where
the checkout, the build and ../shared are), running (searches in-process
or through marlmap-explore), cli (common options) and reports (Markdown,
JSON, plots).
"""
