"""Write static/audio/turn.wav, the table's "your turn" sound: two short soft tones (8 kHz, 8-bit mono).

Run it again to change the sound: `.venv/bin/python scripts/turn_sound.py`.
"""

import math
import wave
from pathlib import Path

RATE = 8000
TONES = ((660, 0.09), (0, 0.03), (880, 0.12))  # Hz (0: a pause), seconds
VOLUME = 0.35


def samples() -> bytes:
    out = bytearray()
    for frequency, seconds in TONES:
        count = int(RATE * seconds)
        for n in range(count):
            fade = min(1.0, n / 80, (count - n) / 80)  # no clicks at the edges
            value = math.sin(2 * math.pi * frequency * n / RATE) * VOLUME * fade if frequency else 0.0
            out.append(int(128 + 127 * value))
    return bytes(out)


def main() -> None:
    path = Path(__file__).resolve().parent.parent / "static" / "audio" / "turn.wav"
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(1)
        sound.setframerate(RATE)
        sound.writeframes(samples())
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
