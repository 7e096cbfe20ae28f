from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="tournaments"),
    path("<int:tournament_id>/", views.detail, name="tournament"),
    path("<int:tournament_id>/register/", views.register, name="tournament_register"),
    path("<int:tournament_id>/unregister/", views.unregister, name="tournament_unregister"),
    path("<int:tournament_id>/add-on/", views.add_on, name="tournament_add_on"),
    path("tables/<int:table_id>/info/", views.table_info, name="tournament_table_info"),
]
