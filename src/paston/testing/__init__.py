"""Whole-system testing of Paston: throwaway services (:mod:`.services`), scripted
players (:mod:`.players`), a chaos run of a cluster (:mod:`.chaos`) and the checker of
its history (:mod:`.history`). These need the server's packages (``paston[cluster]``)
and Debian's ``postgresql`` and ``redis-server``."""
