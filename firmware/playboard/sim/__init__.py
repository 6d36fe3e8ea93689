"""Everything only the simulated board runs (the MicroPython unix port driven by the
host tools): the ``sim`` hardware backend (:mod:`playboard.sim.hw`), the littlefs
flash image (:mod:`playboard.sim.flash`), the control bridge
(:mod:`playboard.sim.bridge`, with the entry ``run``) and its start-up
(:mod:`playboard.sim.boot`). Never frozen into a board's build; nothing outside this
package imports it (docs/architecture.md). This package file holds no code.
"""
