"""A URLconf with a stand-in `lobby`, to see the pages link to it."""

from django.urls import path
from django.views.generic import TemplateView

from tests.config.urls_without_lobby import urlpatterns as base_patterns

urlpatterns = [
    *base_patterns,
    path("somewhere/lobby/", TemplateView.as_view(template_name="home.html"), name="lobby"),
]
