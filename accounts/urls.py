"""Account URLs: sign up and profile here; log in/out, password change and reset are Django's.

Names: signup, profile, login, logout, password_change, password_change_done,
password_reset, password_reset_done, password_reset_confirm, password_reset_complete.
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.SignUpView.as_view(), name="signup"),
    # A player who is logged in already goes straight on to where they were headed.
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("profile/", views.ProfileView.as_view(), name="profile"),
    # Django's own, limited per client address and per e-mail address asked for.
    path("password_reset/", views.LimitedPasswordResetView.as_view(), name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
