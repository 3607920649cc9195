"""The window: the frame loop and the stack of scenes (app), the parts of a screen as
sections (sections), where they go (layout) and whether there is a screen (display)."""
