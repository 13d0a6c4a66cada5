"""Seeded, synthetic AML cases: the customers, alerts and transactions the lab investigates.

Everything here is invented (names, banks, the watchlist) and plain data: dicts and lists of
str / int / float only, so a case can be stored in a checkpoint and shown in the page as is.

Three cases, one per path through the graph:

- ``S-1001`` *structuring*: cash deposits just under the 10,000 reporting threshold, spread over
  branches and days, then wired abroad → a SAR is drafted;
- ``S-1002`` *sanctions hit*: wires to a counterparty on the (synthetic) watchlist → a SAR;
- ``S-1003`` *clean*: an unusual card payment that turns out to fit the profile → case closed.
"""

from __future__ import annotations

from typing import Any

REPORTING_THRESHOLD = 10_000
"""Cash transactions at or above this amount are reported automatically (a CTR, in US terms),
which is why structuring keeps each deposit just below it."""

WATCHLIST: list[dict[str, Any]] = [
    {
        "name": "Borealis Vektor Trading FZE",
        "aliases": ["Borealis Vektor", "BVT FZE"],
        "list": "LAB-SDN (synthetic)",
        "program": "SYNTH-EXPORT-CONTROLS",
    },
    {
        "name": "Anselm Korvath",
        "aliases": ["A. Korvath"],
        "list": "LAB-SDN (synthetic)",
        "program": "SYNTH-PEP-FREEZE",
    },
]
"""A tiny sanctions list; real screening uses OFAC SDN, EU and UN lists."""


def _transactions(case_id: str, rows: list[tuple[str, str, float, str, str, str]]) -> list[dict[str, Any]]:
    """Rows ``(date, kind, amount, counterparty, location, country)`` as transaction dicts."""
    return [
        {
            "id": f"T-{case_id[2:]}-{n:02d}",
            "date": date,
            "kind": kind,
            "amount": amount,
            "currency": "USD",
            "counterparty": counterparty,
            "location": location,
            "country": country,
        }
        for n, (date, kind, amount, counterparty, location, country) in enumerate(rows, start=1)
    ]


CASES: dict[str, dict[str, Any]] = {
    "S-1001": {
        "id": "S-1001",
        "title": "Structuring below the reporting threshold",
        "customer": {
            "id": "C-88412",
            "name": "Dana Whitfield",
            "type": "individual",
            "occupation": "Freelance photographer",
            "expected_monthly_cash": 1_500,
            "country": "US",
        },
        "alert": "Nine cash deposits between 9,000 and 9,999 in two weeks, at three branches.",
        "transactions": _transactions(
            "S-1001",
            [
                ("2025-03-03", "cash_deposit", 9_400.00, "cash", "Branch 14, Elm St", "US"),
                ("2025-03-04", "cash_deposit", 9_850.00, "cash", "Branch 22, Harbor Rd", "US"),
                ("2025-03-05", "card_payment", 64.20, "Corner Grocery", "POS", "US"),
                ("2025-03-06", "cash_deposit", 9_700.00, "cash", "Branch 14, Elm St", "US"),
                ("2025-03-07", "cash_deposit", 9_975.00, "cash", "Branch 31, Mill Ave", "US"),
                ("2025-03-10", "cash_deposit", 9_500.00, "cash", "Branch 22, Harbor Rd", "US"),
                ("2025-03-11", "cash_deposit", 9_900.00, "cash", "Branch 31, Mill Ave", "US"),
                ("2025-03-12", "cash_deposit", 9_650.00, "cash", "Branch 14, Elm St", "US"),
                ("2025-03-13", "cash_deposit", 9_800.00, "cash", "Branch 22, Harbor Rd", "US"),
                ("2025-03-14", "cash_deposit", 9_950.00, "cash", "Branch 31, Mill Ave", "US"),
                ("2025-03-17", "wire_out", 86_000.00, "Lumen Coast Imports Ltd", "SWIFT", "CY"),
            ],
        ),
    },
    "S-1002": {
        "id": "S-1002",
        "title": "Wires to a sanctioned counterparty",
        "customer": {
            "id": "C-10277",
            "name": "Kestrel Freight Ltd",
            "type": "business",
            "occupation": "Freight forwarding",
            "expected_monthly_cash": 0,
            "country": "US",
        },
        "alert": "Wire counterparty resembles a watchlist entry.",
        "transactions": _transactions(
            "S-1002",
            [
                ("2025-02-03", "wire_in", 42_000.00, "Harbor Logistics Inc", "ACH", "US"),
                ("2025-02-10", "wire_out", 18_250.00, "Borealis Vektor Trading FZE", "SWIFT", "AE"),
                ("2025-02-12", "wire_out", 7_480.00, "Pacific Fuel Supply", "ACH", "US"),
                ("2025-02-19", "wire_out", 21_900.00, "Borealis Vektor Trading FZE", "SWIFT", "AE"),
                ("2025-02-24", "wire_in", 35_500.00, "Harbor Logistics Inc", "ACH", "US"),
            ],
        ),
    },
    "S-1003": {
        "id": "S-1003",
        "title": "A clean customer (false positive)",
        "customer": {
            "id": "C-55120",
            "name": "Priya Raman",
            "type": "individual",
            "occupation": "Nurse",
            "expected_monthly_cash": 300,
            "country": "US",
        },
        "alert": "Card payment of 4,200 is five times the customer's usual largest payment.",
        "transactions": _transactions(
            "S-1003",
            [
                ("2025-04-01", "wire_in", 5_120.00, "St. Mercy Hospital (salary)", "ACH", "US"),
                ("2025-04-02", "wire_out", 1_850.00, "Oakview Apartments (rent)", "ACH", "US"),
                ("2025-04-05", "card_payment", 132.75, "FreshMart", "POS", "US"),
                ("2025-04-09", "card_payment", 4_200.00, "Riverside Auto Repair", "POS", "US"),
                ("2025-04-15", "wire_in", 5_120.00, "St. Mercy Hospital (salary)", "ACH", "US"),
            ],
        ),
    },
}


def case_ids() -> list[str]:
    return list(CASES)


def get_case(case_id: str) -> dict[str, Any]:
    """The seeded case ``case_id``; a clear ``KeyError`` naming the known ones otherwise."""
    if case_id not in CASES:
        raise KeyError(f"Unknown case {case_id!r}; the seeded cases are: {', '.join(CASES)}")
    return CASES[case_id]


def case_summaries() -> list[dict[str, Any]]:
    """What the page's case picker shows: id, title, customer name, alert, transaction count."""
    return [
        {
            "id": case["id"],
            "title": case["title"],
            "customer": case["customer"]["name"],
            "alert": case["alert"],
            "transactions": len(case["transactions"]),
        }
        for case in CASES.values()
    ]
