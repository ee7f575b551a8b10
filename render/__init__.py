"""Board images: render/<id>.py draws that game's *view* (never a raw state); shared helpers in common."""
