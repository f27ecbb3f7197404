"""The Learn page's course: a few curated deals, each teaching one idea of the game
(:mod:`.course`), played at private lesson tables; :mod:`.rehearse` plays a lesson
through with the hint's advice, as the tests do to check that following it works."""
