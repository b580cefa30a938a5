"""The site's URLs plus one view that fails, to see the server-error page."""

from django.urls import path

from config.urls import urlpatterns as site_patterns


def broken_view(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [*site_patterns, path("broken/", broken_view)]
handler500 = "config.views.server_error"
