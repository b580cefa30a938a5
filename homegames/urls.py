"""URLs of the nights ahead, included at /home-games/ (namespace ``homegames``)."""

from django.urls import path

from homegames import views

app_name = "homegames"

urlpatterns = [
    path("calendar-settings/", views.prefs, name="prefs"),
    path("time-zone/", views.zone_confirm, name="zone_confirm"),
    path("feed/<str:token>.ics", views.feed, name="feed"),
    path("<int:home_game_id>/feed/replace/", views.feed_replace, name="feed_replace"),
    path("<int:home_game_id>/nights/<int:night_id>/night.ics", views.night_ics, name="night_ics"),
    path("<int:home_game_id>/nights/", views.night_list, name="night_list"),
    path("<int:home_game_id>/nights/new/", views.night_new, name="night_new"),
    path("<int:home_game_id>/templates/new/", views.template_new, name="template_new"),
    path("<int:home_game_id>/nights/<int:night_id>/", views.night_detail, name="night_detail"),
    path("<int:home_game_id>/nights/<int:night_id>/edit/", views.night_edit, name="night_edit"),
    path("<int:home_game_id>/nights/<int:night_id>/answer/", views.night_answer_view, name="night_answer"),
    path("<int:home_game_id>/nights/<int:night_id>/cancel/", views.night_cancel_view, name="night_cancel"),
    path("<int:home_game_id>/nights/<int:night_id>/open/", views.night_open_view, name="night_open"),
    path("<int:home_game_id>/nights/<int:night_id>/sit/", views.night_sit_view, name="night_sit"),
]
