from django.contrib.auth import views as auth_views
from django.urls import path

from . import languages, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("profile/", views.profile, name="profile"),
    path("profile/reload/", views.reload_bankroll, name="reload"),
    path("profile/chips/", views.header_chips, name="header_chips"),
    path("language/", languages.set_language, name="set_language"),
]
