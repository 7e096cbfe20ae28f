from django.urls import path

from .consumers import StaffRoomConsumer

websocket_urlpatterns = [path("ws/staff/room/", StaffRoomConsumer.as_asgi())]
