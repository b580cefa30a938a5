"""URLs of the lobby, joining, the table page and (included) hand histories (the home page is config/urls.py's)."""

from django.urls import include, path

from tables.pages import views, views_invite, views_join, views_push

urlpatterns = [
    path("tables/", views.lobby, name="lobby"),
    path("tables/open/", views.table_open, name="table_open"),
    path("tables/join/", views_join.table_join_by_code, name="table_join_by_code"),
    path("tables/join/withdraw/", views_join.table_join_withdraw, name="table_join_withdraw"),
    path("t/<str:code>/", views_join.table_join, name="table_join"),
    path("t/<str:code>/seat/<int:seat_id>/<str:key>/", views_join.table_seat_link, name="table_seat_link"),
    path("t/<str:code>/<str:invite_token>/", views_join.table_invite, name="table_invite"),
    path("tables/<str:code>/", views.table_detail, name="table_detail"),
    path("tables/<str:code>/settings/", views.table_settings, name="table_settings"),
    path("tables/<str:code>/remove/", views.table_remove, name="table_remove"),
    path("tables/<str:code>/seat-links/", views_join.table_seat_links, name="table_seat_links"),
    path("tables/<str:code>/invite/", views_invite.table_invite_link, name="table_invite_link"),
    path("tables/<str:code>/invite/new/", views_invite.table_invite_rotate, name="table_invite_rotate"),
    path("tables/<str:code>/computers/", views.table_computers, name="table_computers"),
    path("tables/<str:code>/push/", views_push.table_push, name="table_push"),
    path("manifest.webmanifest", views_push.web_manifest, name="web_manifest"),
    path("sw.js", views_push.service_worker, name="service_worker"),
    path("tables/<str:code>/local-players/", views.table_local_players, name="table_local_players"),
    path("", include("tables.pages.urls_history")),
]
