"""The site's URLs: the home page, accounts, the lobby and tables, the ledger, the admin.

The home page lives here (URL name ``home``); the lobby and tables own their paths in
tables/urls.py (the lobby's URL name is ``lobby``).
"""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("ledger/", include("ledger.urls")),
    path("", include("tables.urls")),
]

# The site's own error pages (config/views.py), in place of Django's plain or technical ones.
handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
