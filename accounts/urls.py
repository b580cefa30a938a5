"""Account URLs: sign up and profile here; log in/out, password change and reset are Django's.

Names: signup, profile, login, logout, password_change, password_change_done,
password_reset, password_reset_done, password_reset_confirm, password_reset_complete.
"""

from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.SignUpView.as_view(), name="signup"),
    path("profile/", views.ProfileView.as_view(), name="profile"),
    path("", include("django.contrib.auth.urls")),
]
