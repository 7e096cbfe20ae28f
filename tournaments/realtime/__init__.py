"""The tournaments' live screens: the tournament lobby over a socket, and the alert each
player's open pages get when their tournament starts."""
