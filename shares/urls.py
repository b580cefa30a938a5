"""URLs of shared hands: a hand's link (its page, making and revoking it) and the page behind
the link. The paths under a table's history are the ones the hand's page always posted to."""

from django.urls import path

from shares import views

urlpatterns = [
    path("tables/<str:code>/history/<int:number>/link/", views.hand_link, name="hand_link"),
    path("tables/<str:code>/history/<int:number>/share/", views.hand_share, name="hand_share"),
    path("tables/<str:code>/history/<int:number>/share/revoke/", views.hand_share_revoke, name="hand_share_revoke"),
    path("h/<str:token>/", views.shared_hand, name="shared_hand"),
]
