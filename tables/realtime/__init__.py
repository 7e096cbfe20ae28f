"""The room in real time: the websocket consumers and their routing, the screens pushed after
each commit (notify), presence and the socket guards, recovery after an outage, the snapshot
threads, graceful shutdown and the embedded clock."""
