from django.contrib.auth import views as auth_views
from django.urls import path

from . import languages, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("profile/", views.profile, name="profile"),
    path("profile/reload/", views.reload_bankroll, name="reload"),
    path("profile/my-data.zip", views.download_data, name="download_data"),
    path("profile/close/", views.close_my_account, name="close_account"),
    path("profile/email/", views.change_email, name="change_email"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("profile/chips/", views.header_chips, name="header_chips"),
    path("language/", languages.set_language, name="set_language"),
]
