"""The harness itself: the real server answers and Chromium renders its pages."""


def test_home_page_is_served_by_the_live_server(live_site, new_page):
    page = new_page()
    response = page.goto("/")
    assert response.status == 200
    assert "Dashain" in page.title()
