"""Every guided lesson walked in Chinese by clicking, as a learner clicks (``lesson_walk.py``), on one
page with one boot: a module of its own, so that CI's two browser workers walk both languages at once."""

from lesson_walk import walk_every_lesson


def test_every_lesson_walked_by_clicking_in_chinese(page, site):
    walk_every_lesson(page, site, "zh")
