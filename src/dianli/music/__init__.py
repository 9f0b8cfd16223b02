"""The music of the 祀先師 rite (大成樂): pitch, score, instruments, cues and their renderers."""
