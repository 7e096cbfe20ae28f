from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("accounts/", include("accounts.urls")),
    path("hands/", include("tables.history.urls")),
    path("", include("operations.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("tables.urls")),
]
