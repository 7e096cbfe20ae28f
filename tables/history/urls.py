from django.urls import path

from . import views

app_name = "history"

urlpatterns = [
    path("", views.hand_list, name="list"),
    path("export.txt", views.export_pokerstars_range, name="export_range"),
    path("history.txt", views.export_history, name="export_history"),
    path("history-phh.zip", views.export_history_phh, name="export_history_phh"),
    path("<int:hand_id>/", views.hand_detail, name="detail"),
    path("<int:hand_id>/export.txt", views.export_pokerstars, name="export_text"),
    path("<int:hand_id>/export.phh", views.export_phh, name="export_phh"),
    path("<int:hand_id>/proof.json", views.export_proof, name="proof"),
]
