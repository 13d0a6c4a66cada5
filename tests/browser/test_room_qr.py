"""The room's QR code (``static/qr.mjs``, docs/ROOM.md): the presenter's room panel shows a QR code of
``<origin>/join?code=<code>``, and /join opened at that address has the code filled in. Each drawn code
is read back from its SVG path and checked against a reference encoder: the modules equal what
``qrcode`` (PyPI) draws for the same text, version and mask, and the mask is the one of least
penalty by ``segno``'s ISO/IEC 18004 scoring (7.8.3)."""

import re

import qrcode
from browser_harness import BOOT_TIMEOUT_S
from playwright.sync_api import expect
from qrcode.util import MODE_8BIT_BYTE, QRData
from segno.encoder import evaluate_mask

MARGIN = 4  # light modules around the code, in the SVG
SETUP_TIMEOUT_MS = 2 * BOOT_TIMEOUT_S * 1000  # the presenter's page boots its lab


def reference(text: str, version: int, mask: int) -> list[list[int]]:
    """The modules ``qrcode`` draws for ``text`` as bytes at level M in ``version`` with ``mask``."""
    code = qrcode.QRCode(version=version, error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.mask_pattern = mask
    code.add_data(QRData(text.encode(), mode=MODE_8BIT_BYTE))
    code.make(fit=False)
    return [[int(module) for module in row] for row in code.get_matrix()]


def least_penalty_mask(text: str, version: int) -> int:
    scores = []
    for mask in range(8):
        modules = reference(text, version, mask)
        scores.append(evaluate_mask([bytearray(row) for row in modules], len(modules), len(modules)))
    return scores.index(min(scores))


def drawn(svg) -> tuple[str, int, int, list[list[int]]]:
    """The text, version, mask and modules of a QR code the page drew: the modules from the SVG's path."""
    text, version, mask = (svg.get_attribute(name) for name in ("data-qr", "data-qr-version", "data-qr-mask"))
    size = 17 + 4 * int(version)
    modules = [[0] * size for _ in range(size)]
    squares = re.findall(r"M(\d+) (\d+)h1v1h-1z", svg.locator("path").get_attribute("d"))
    for x, y in squares:
        modules[int(y) - MARGIN][int(x) - MARGIN] = 1
    return text, int(version), int(mask), modules


def assert_scannable(text: str, version: int, mask: int, modules: list[list[int]]) -> None:
    assert modules == reference(text, version, mask)
    assert mask == least_penalty_mask(text, version)


def test_the_room_panel_shows_a_qr_code_of_its_join_address(browser, wrangler_site):
    context = browser.new_context()
    try:
        teacher = context.new_page()
        teacher.goto(f"{wrangler_site}/learn/zh/checkpoints/input/?present=1")
        teacher.locator("[data-room-open]").click()
        code = teacher.locator("[data-room-code]")
        expect(code).to_have_text(re.compile(r"^[A-HJ-NP-Z2-9]{6}$"), timeout=SETUP_TIMEOUT_MS)
        svg = teacher.locator("[data-room-qr] svg")
        expect(svg).to_have_attribute("aria-label", "二维码：扫描即可加入这个房间")
        text, version, mask, modules = drawn(svg)
        assert text == f"{wrangler_site}/join?code={code.inner_text()}&lang=zh"
        assert_scannable(text, version, mask, modules)

        learner = context.new_page()  # what a phone opens after scanning
        learner.goto(text)
        expect(learner.locator("[data-join-code]")).to_have_value(code.inner_text())
        learner.get_by_role("button", name="加入").click()
        expect(learner).to_have_url(re.compile(f"/learn/zh/checkpoints/input/\\?room={code.inner_text()}$"))
    finally:
        context.close()


# From one byte to the most a version-6 code holds, in UTF-8 (a two-byte character), across every version.
TEXTS = [
    "A",
    "hello world",
    "é" * 13,
    "x" * 40,
    "http://127.0.0.1:8788/join?code=ABCDEF",
    "y" * 60,
    "z" * 84,
    "w" * 106,
]


def test_qr_codes_of_every_version_match_the_reference(browser, site):
    page = browser.new_page()
    try:
        page.goto(f"{site}/join")
        page.evaluate(
            """async (texts) => {
                const { qrSvg } = await import("/qr.mjs");
                for (const text of texts) document.body.append(qrSvg(text, text));
            }""",
            TEXTS,
        )
        versions = set()
        for index, text in enumerate(TEXTS):
            drawn_text, version, mask, modules = drawn(page.locator("body > svg").nth(index))
            assert drawn_text == text
            assert_scannable(text, version, mask, modules)
            versions.add(version)
        assert versions == {1, 2, 3, 4, 5, 6}
        refusal = page.evaluate(
            """async () => {
                const { qrMatrix } = await import("/qr.mjs");
                try { qrMatrix("v".repeat(107)); } catch (error) { return `${error.name}: ${error.message}`; }
            }"""
        )
        assert refusal == "RangeError: a QR code here holds at most 106 bytes, not 107"
    finally:
        page.close()
