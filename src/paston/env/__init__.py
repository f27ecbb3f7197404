"""Paston for learning programs: PettingZoo (:mod:`paston.env.pettingzoo`) and Gymnasium
(:mod:`paston.env.gymnasium`) environments over the encodings of :mod:`paston.encoding`.

They need the optional extras: ``pip install 'paston[envs]'``.
"""
