"""URLs of the home page, the lobby, joining, the table page and (included) hand histories."""

from django.urls import include, path
from django.views.generic import TemplateView

from tables import views

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("tables/", views.lobby, name="lobby"),
    path("tables/open/", views.table_open, name="table_open"),
    path("tables/join/", views.table_join, name="table_join_by_code"),
    path("t/<str:code>/", views.table_join, name="table_join"),
    path("tables/<str:code>/", views.table_detail, name="table_detail"),
    path("tables/<str:code>/settings/", views.table_settings, name="table_settings"),
    path("", include("tables.urls_history")),
]
