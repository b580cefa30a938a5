"""The site's URLs: the home page, accounts, the lobby and tables, the ledger, the admin,
the language switcher (``set_language``) and the JavaScript catalogue (``javascript-catalog``).

The home page lives here (URL name ``home``); the lobby and tables own their paths in
tables/pages/urls.py (the lobby's URL name is ``lobby``); a shared hand's pages are
shares/urls.py.
"""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

from accounts.language import set_language

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    # The page scripts' gettext/ngettext/interpolate (base.html loads it on every page).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("ledger/", include("homegames.urls_ledger")),
    path("home-games/", include("homegames.urls")),
    path("kitchen/", include("kitchen.urls")),
    path("", include("shares.urls")),
    path("", include("tables.pages.urls")),
]

# The site's own error pages (config/views.py), in place of Django's plain or technical ones.
handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
