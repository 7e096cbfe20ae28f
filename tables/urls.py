from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/waiting-list/", views.join_waiting_list, name="join_waiting_list"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
]
