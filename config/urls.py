"""The site's URLs: accounts, the lobby and tables, the ledger, the admin."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("tables.urls")),
    path("ledger/", include("ledger.urls")),
]
