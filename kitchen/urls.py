from django.urls import path

from kitchen import views, views_tournament

app_name = "kitchen"

urlpatterns = [
    path("new/", views.night_new, name="new"),
    path("new/tournament/", views_tournament.tournament_new, name="tournament_new"),
    path("<str:code>/", views.night_detail, name="night"),
    path("<str:code>/do/", views.night_act, name="act"),
    path("<str:code>/night.csv", views.night_csv, name="night_csv"),
    path("<str:code>/tournament.csv", views.tournament_csv, name="tournament_csv"),
    path("<str:code>/join/<str:token>/", views.night_join, name="join"),
    path("<str:code>/clock/", views_tournament.clock_act, name="clock"),
    path("<str:code>/tv/<str:token>/", views_tournament.tv_page, name="tv"),
    path("<str:code>/tv/<str:token>/state/", views_tournament.tv_state_json, name="tv_state"),
]
