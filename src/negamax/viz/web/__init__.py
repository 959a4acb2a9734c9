"""The web app (``negamax serve``, ``pip install 'negamax[web]'``): boards you play by
clicking, the engine's best search streaming as it thinks, Connect 4's exact column
scores, and the search tree you can read.

* ``app``: the routes (FastAPI on uvicorn), every input validated and bounded;
* ``guard``: the request guard in front of them (body size, slow or short bodies);
* ``searches``: the searches, capped in time and nodes, run on threads, stopped when the
  page goes away, at most ``MAX_SEARCHES`` at once;
* ``boards``: what each game's board looks like to the page;
* ``static/``: the page (HTML, CSS and plain JavaScript, no build step).
"""
