from django.urls import path

from kitchen import views

app_name = "kitchen"

urlpatterns = [
    path("new/", views.night_new, name="new"),
    path("<str:code>/", views.night_detail, name="night"),
    path("<str:code>/do/", views.night_act, name="act"),
    path("<str:code>/join/<str:token>/", views.night_join, name="join"),
]
