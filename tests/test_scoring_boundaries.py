"""Scoring on every boundary the rule book names (RULES.md 1.7, 2.5, 3.4), one finished deal per boundary.

Each deal was found by seeded random legal play that sits exactly on the boundary (Zwanzigerrufen 44/45 points, 55/56
and 32/33 for Absolut, Valat both ways, Pagat Ultimo made, beaten and played early, Mondfang and the Sagotrick that
is none; Schafkopf 60/61, Schneider 30/31 and 90/91, Schwarz both ways, a trick without points, Laufende from 0 to
7 in Rufer, Wenz and Solo, Tout won and lost, Sie, a called ace that ran away; Kratzen with 3 to 6 players, Muss and
Seven-Muss, an attacker with 4, 2, 1 and 0 tricks and pots that do not divide by 4), then the silent defaults were
checked against a scorer written from RULES.md alone and the flags and announcements by hand. The deals are kept
here card by card, so a change of the scoring shows as the case it breaks. `stich score --json` must agree on all.
"""

from __future__ import annotations

import json
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

import solver
from solver.cli.main import app
from solver.scoring import score_deal


class Case(NamedTuple):
    name: str
    game: str
    contract: str
    declarer: str
    deal: str
    play: str
    tags: dict[str, str]
    leader: str
    payments: tuple[int, ...]
    items: tuple[tuple[str, tuple[int, ...], int], ...]
    pot_change: int = 0


def record_text(case: Case) -> str:
    """The case as a .tbn record, one trick a line (an empty play: a Sie, which is not played)."""
    lines = [f'[Game "{case.game}"]', f'[Event "{case.name}"]', f'[Deal "{case.deal}"]',
             f'[Contract "{case.contract}"]', f'[Declarer "{case.declarer}"]']
    lines += [f'[{name} "{value}"]' for name, value in case.tags.items()]
    if case.play:
        cards, seats = case.play.split(), len(case.deal.split("/"))
        lines += [f'[Play "{case.leader}"]'] + [" ".join(cards[i:i + seats]) for i in range(0, len(cards), seats)]
        lines.append("*")
    return "\n".join(lines) + "\n"


CASES = [
    Case('44 declarers lose', 'Zwanzigerrufen', 'Normal', '1',
         '1: DG CQ HQ SJ T9 CJ T6 DK TS T20 / T15 T13 SQ DJ SG T12 T5 SK HK CK / T17 T4 T7 HG T14 T16 T10 DQ HJ DN / '
         'T21 CG HN T19 T11 CN SN T1 T18 T8',
         'CJ CK T16 CN DQ T1 DK DJ T21 T9 T13 T14 HN HQ HK HG SG T7 SN SJ HJ T8 T6 T15 T12 T4 T19 T20 TS T5 T17 T11 '
         'DG SQ DN T18 CG CQ SK T10',
         {}, '1',
         (-1, 1, 1, -1), (('game', (2, 3), 1),)),
    Case('45 declarers win', 'Zwanzigerrufen', 'Normal', '1',
         '1: T15 SJ T17 SQ CG T1 T7 DJ DQ T14 / SN T11 CN T19 T4 HK SG T10 DK DG / HN SK T5 T16 T9 CK T21 T8 CQ T13 '
         '/ DN HG T20 TS HQ HJ CJ T12 T6 T18',
         'T15 T4 T9 TS T20 T7 T11 T21 SK T18 SJ SN DN DQ DG T16 T13 T12 T17 T10 DJ DK T5 T6 HG T1 HK HN CG CN CK CJ '
         'CQ HQ T14 T19 SG T8 HJ SQ',
         {}, '1',
         (1, -1, -1, 1), (('game', (1, 4), 1),)),
    Case('56 absolut', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {}, '1',
         (2, -2, -2, 2), (('game', (1, 4), 1), ('absolut', (1, 4), 1))),
    Case('55 no absolut', 'Zwanzigerrufen', 'Normal', '1',
         '1: T16 T18 HG CJ HK T13 CN T6 CK T19 / DQ T11 HN SQ T1 T5 CG DN T20 T9 / T17 T14 SG T4 T15 DJ DG TS T7 HQ '
         '/ SK SN T10 T12 HJ SJ T21 T8 CQ DK',
         'CK CG TS CQ T17 T8 T19 T9 T6 T1 T4 T12 DK T13 DN DJ HK HN HQ HJ HG T5 T14 T10 T15 T21 T16 T20 SK T18 SQ SG '
         'CN T11 T7 SN DQ DG SJ CJ',
         {}, '1',
         (1, 1, -1, -1), (('game', (1, 2), 1),)),
    Case('33 no absolut', 'Zwanzigerrufen', 'Normal', '1',
         '1: CK CQ SN HG CJ T20 HN HJ T19 HK / T11 T1 T15 DJ SK T16 T10 SQ SJ CG / T18 T5 T6 DN HQ T14 DG TS CN T12 '
         '/ T8 DK DQ T13 T17 T9 T7 T4 T21 SG',
         'T20 T10 T5 T9 T19 T11 T6 T7 HJ T15 HQ T17 DQ SN DJ DN T4 HG T1 T18 CN T13 CQ CG T8 HN T16 TS DG DK CK SQ '
         'SG CJ SK T12 T14 T21 HK SJ',
         {}, '1',
         (-1, 1, -1, 1), (('game', (2, 4), 1),)),
    Case('32 defenders absolut', 'Zwanzigerrufen', 'Normal', '1',
         '1: T16 CQ T21 SG SN T15 T11 SJ T7 DK / T20 T4 SQ T10 HG T14 DQ HK CN T6 / SK T1 CJ CG T12 TS T13 DJ T18 '
         'T19 / T5 T17 DN HQ CK HN T9 T8 HJ DG',
         'T11 T4 T18 T9 SK T5 SN SQ DG DK DQ DJ T15 T20 T13 T8 T10 T12 T17 T21 T7 T14 T1 HJ T6 T19 HQ T16 CJ CK CQ '
         'CN HN SG HK TS CG DN SJ HG',
         {}, '1',
         (-2, -2, 2, 2), (('game', (3, 4), 1), ('absolut', (3, 4), 1))),
    Case('Solo 45 won', 'Zwanzigerrufen', 'Solo', '4',
         '1: T13 DQ TS T5 T11 SN CG SJ T18 T16 / HK CK T6 SG T8 DK DJ T10 HQ HG / T19 CQ DN DG CJ HN SK CN T9 HJ / '
         'T15 T20 T4 T17 T7 T21 T14 T12 T1 SQ',
         'TS T8 T19 T17 SJ SG SK SQ DN T15 DQ DK T12 T13 T10 T9 CG CK CQ T7 T14 T11 T6 DG T21 T18 HG CN T4 T16 HK HJ '
         'SN HQ CJ T20 T1 T5 DJ HN',
         {}, '1',
         (-2, -2, -2, 6), (('game', (4,), 4), ('pagat_ultimo', (1, 2, 3), 2))),
    Case('Solo 32 lost with absolut against', 'Zwanzigerrufen', 'Solo', '2',
         '1: T9 DQ T8 HQ CJ CQ T18 DJ T10 TS / HJ T5 T15 T13 SK HG T6 T12 T1 SG / T21 HK SQ DG T17 T4 T7 SJ DN T14 / '
         'DK CK T16 T20 CG HN T19 T11 CN SN',
         'DQ T1 DN DK T13 T14 T20 T8 CK CQ T12 T4 T5 T7 T16 T10 CG CJ T6 T17 HK HN HQ HJ SJ SN TS SK DJ T15 DG T11 '
         'SG SQ T19 T18 CN T9 HG T21',
         {}, '1',
         (6, -18, 6, 6), (('game', (1, 3, 4), 4), ('absolut', (1, 3, 4), 2))),
    Case('SuitSolo 45 won', 'Zwanzigerrufen', 'SuitSolo', '4',
         '1: SJ CJ T20 HN DQ HJ CG T11 SG TS / HG T14 HK T13 CN T15 T21 T8 T16 DK / T7 DG DJ T18 T9 T4 T1 SN T5 T6 / '
         'T17 SK DN SQ T19 CK T12 T10 HQ CQ',
         'HJ HG T4 HQ CQ CJ CN T7 CK CG T14 T5 DN DQ DK DJ HK T9 T19 HN T13 T6 T10 T11 T16 T1 T17 TS SG T21 SN SQ SK '
         'SJ T15 T18 T12 T20 T8 DG',
         {}, '1',
         (-4, -4, -4, 12), (('game', (4,), 4),)),
    Case('SuitSolo 44 lost', 'Zwanzigerrufen', 'SuitSolo', '3',
         '1: CK T7 TS T1 CN HG T19 HQ DJ DK / HJ SJ T12 T8 T4 SK T9 T16 T15 SG / HN DQ CJ DG SQ T5 SN DN CQ T21 / CG '
         'T13 T14 T17 T18 HK T6 T20 T11 T10',
         'CK T4 CQ CG HQ HJ HN HK T18 T19 T15 T21 DN T10 DK T16 CN T8 CJ T11 HG T9 T5 T14 DJ T12 DQ T17 SQ T6 TS SJ '
         'SN T20 T7 SG DG T13 T1 SK',
         {}, '1',
         (4, 4, -12, 4), (('game', (1, 2, 4), 4),)),
    Case('Pagat ultimo won silent', 'Zwanzigerrufen', 'Normal', '1',
         '1: HJ SQ DQ DG T17 CQ T9 HQ DJ T18 / SJ T14 T4 DK T13 CN HK HG CG T19 / T1 DN T12 CK T15 T16 SN T11 T10 '
         'T21 / SG T5 SK T8 T20 T7 T6 TS HN CJ',
         'DJ DK DN T8 T7 T18 T13 T10 DQ T14 T16 T20 TS T17 T19 T12 SK SQ SJ SN HN HJ HG T15 T21 T6 T9 T4 T11 T5 HQ '
         'CN CK CJ CQ CG T1 SG DG HK',
         {}, '1',
         (-2, 2, 2, -2), (('game', (2, 3), 1), ('pagat_ultimo', (2, 3), 1))),
    Case('Pagat ultimo beaten silent', 'Zwanzigerrufen', 'Normal', '1',
         '1: T14 SK T5 DJ DK CG T16 SJ DN T15 / HG T18 T20 T11 CJ HN SQ HJ T6 DG / T12 SN T17 T13 T21 HK DQ T9 T1 T7 '
         '/ CQ HQ CK T8 TS CN T10 T4 SG T19',
         'DK DG DQ T19 CK CG CJ T9 SN SG SK SQ DJ T6 T17 T8 HK HQ T15 HJ DN T11 T7 T10 HG T13 TS T5 CN T14 T18 T12 '
         'HN T21 T4 T16 T1 CQ SJ T20',
         {}, '1',
         (2, 2, -2, -2), (('game', (1, 2), 1), ('pagat_ultimo', (1, 2), 1))),
    Case('Solo Pagat won silent (doubled)', 'Zwanzigerrufen', 'Solo', '1',
         '1: HG T1 T18 T21 T20 CN DK T9 T7 SK / CK HJ TS DJ T8 CJ T17 T14 DQ CG / DG HK CQ SG T15 T12 DN T13 T11 HN '
         '/ SN T6 T19 T4 SJ HQ T5 T16 SQ T10',
         'T20 T8 T12 T16 T9 TS T13 T6 CK CQ T5 CN HQ HG HJ HN T10 T7 T14 T11 CG T15 T19 T18 SN SK T17 SG DQ DG T4 DK '
         'SJ T21 DJ HK T1 CJ DN SQ',
         {}, '1',
         (-12, 4, 4, 4), (('game', (2, 3, 4), 4), ('absolut', (2, 3, 4), 2), ('pagat_ultimo', (1,), 2))),
    Case('Pagat played early silent: nothing', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {}, '1',
         (2, -2, -2, 2), (('game', (1, 4), 1), ('absolut', (1, 4), 1))),
    Case('Mondfang', 'Zwanzigerrufen', 'Normal', '1',
         '1: CK CN HK T1 HJ SJ T4 CG T9 CJ / HG T6 SG T19 T11 T10 T18 DQ T20 T12 / CQ HN T7 SQ T17 SK T5 T15 TS T13 '
         '/ T8 DK DG T21 T16 HQ T14 DN DJ SN',
         'CK T18 CQ T14 T20 T15 T8 T1 T19 T17 T16 T9 T6 TS T21 T4 T13 SN CN T10 SK HQ SJ SG HN DN HK HG CG T12 T5 DJ '
         'T11 T7 DG HJ DQ SQ DK CJ',
         {}, '1',
         (0, 0, 0, 0), (('game', (3, 4), 1), ('mondfang', (1, 2), 1))),
    Case('Sagotrick: no Mondfang', 'Zwanzigerrufen', 'Normal', '1',
         '1: T12 SG HQ T13 HJ T20 SJ CG SN T10 / DK T16 T18 SQ HN DQ CQ DJ T21 T11 / T19 DG CK T17 T8 T1 CJ HK T9 CN '
         '/ T6 SK T5 DN T4 T14 T7 TS HG T15',
         'SJ SQ T9 SK T19 T14 T10 T11 CK T6 CG CQ T15 T20 T16 T8 SN T21 T1 TS HK HG HJ HN CJ T4 T13 T18 DQ DG DN T12 '
         'SG DJ T17 T7 CN T5 HQ DK',
         {}, '1',
         (2, -2, 2, -2), (('game', (1, 3), 1), ('absolut', (1, 3), 1))),
    Case('Trull silent', 'Zwanzigerrufen', 'Normal', '1',
         '1: T20 T19 T7 T10 T13 CN DK T14 T16 CJ / T8 DN T1 HG HK SN SK T21 TS T12 / T18 T17 T11 CQ T5 SJ HQ T4 HN '
         'CG / CK DQ T15 DG T6 SG SQ DJ HJ T9',
         'T10 TS T5 T6 SK SJ SQ T13 CJ T8 CQ CK T21 T17 T15 T7 DN T4 DG DK HQ HJ T16 HG T20 T1 T11 T9 CN T12 CG SG '
         'HK HN DQ T19 T14 SN T18 DJ',
         {}, '1',
         (1, -1, 1, -1), (('game', (1, 3), 1), ('absolut', (1, 3), 1), ('trull', (2, 4), 1))),
    Case('4 Kings silent', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 T5 T6 T7 CJ HJ T15 T12 TS T8 / SK T9 SJ SN DK HK T21 SQ HN CK / DJ DN HG DQ T16 SG T18 T17 T14 T13 / '
         'T19 CN T4 DG CQ T20 CG HQ T11 T10',
         'HJ HN HG HQ T20 T6 T9 T13 DG T1 DK DJ T7 T21 T18 T4 SJ SG T10 T12 CJ CK T14 CQ T17 T19 T15 HK CN TS SQ T16 '
         'T5 SK DQ T11 CG T8 SN DN',
         {}, '1',
         (0, 0, 0, 0), (('game', (1, 4), 1), ('absolut', (1, 4), 1), ('four_kings', (2, 3), 2))),
    Case('SuitSolo 4 Kings not doubled', 'Zwanzigerrufen', 'SuitSolo', '4',
         '1: HN SJ HJ T9 T16 T13 T1 T21 T10 T14 / DQ T6 HQ SG T15 T20 T4 T11 DJ HG / SK CK HK T7 T8 DN T18 DK CJ DG '
         '/ CG CN T17 CQ T12 SN T19 SQ TS T5',
         'SJ SG SK SQ DN T19 T13 DQ HG HK TS HN DG T12 T10 DJ HQ T8 T17 HJ T4 T18 T5 T9 CJ CN T1 T15 SN T21 T6 T7 CG '
         'T14 T20 CK DK CQ T16 T11',
         {}, '1',
         (7, 7, 7, -21), (('game', (1, 2, 3), 4), ('absolut', (1, 2, 3), 1), ('four_kings', (1, 2, 3), 2))),
    Case('Solo Valat silent', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {}, '1',
         (90, -30, -30, -30), (('game', (1,), 4), ('absolut', (1,), 2), ('valat', (1,), 24))),
    Case('Solo Valat against', 'Zwanzigerrufen', 'Solo', '1',
         '1: CN T10 SQ CG T7 DJ HG SK T12 T9 / TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'CG T14 CJ CK T13 T8 T11 T7 TS T5 T4 T12 T16 HJ T6 T10 T17 SJ T1 T9 T15 DN SG SK T19 DG CQ HG T18 DK HN SQ '
         'T20 SN HQ DJ T21 DQ HK CN',
         {}, '1',
         (-90, 30, 30, 30), (('game', (2, 3, 4), 4), ('absolut', (2, 3, 4), 2), ('valat', (2, 3, 4), 24))),
    Case('44 points with tie_44=no_score: nobody scores', 'Zwanzigerrufen', 'Normal', '1',
         '1: DG CQ HQ SJ T9 CJ T6 DK TS T20 / T15 T13 SQ DJ SG T12 T5 SK HK CK / T17 T4 T7 HG T14 T16 T10 DQ HJ DN / '
         'T21 CG HN T19 T11 CN SN T1 T18 T8',
         'CJ CK T16 CN DQ T1 DK DJ T21 T9 T13 T14 HN HQ HK HG SG T7 SN SJ HJ T8 T6 T15 T12 T4 T19 T20 TS T5 T17 T11 '
         'DG SQ DN T18 CG CQ SK T10',
         {'Variant': 'tie_44=no_score'}, '1',
         (0, 0, 0, 0), (('game', (), 0),)),
    Case('Solo won with 45 and solo_value=5', 'Zwanzigerrufen', 'Solo', '4',
         '1: T13 DQ TS T5 T11 SN CG SJ T18 T16 / HK CK T6 SG T8 DK DJ T10 HQ HG / T19 CQ DN DG CJ HN SK CN T9 HJ / '
         'T15 T20 T4 T17 T7 T21 T14 T12 T1 SQ',
         'TS T8 T19 T17 SJ SG SK SQ DN T15 DQ DK T12 T13 T10 T9 CG CK CQ T7 T14 T11 T6 DG T21 T18 HG CN T4 T16 HK HJ '
         'SN HQ CJ T20 T1 T5 DJ HN',
         {'Variant': 'solo_value=5'}, '1',
         (-3, -3, -3, 9), (('game', (4,), 5), ('pagat_ultimo', (1, 2, 3), 2))),
    Case('Solo Valat silent, valat_mode=replaces_game', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {'Variant': 'valat_mode=replaces_game'}, '1',
         (78, -26, -26, -26), (('absolut', (1,), 2), ('valat', (1,), 24))),
    Case('Solo Valat silent, valat_mode=cancels_other_bonuses', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {'Variant': 'valat_mode=cancels_other_bonuses'}, '1',
         (84, -28, -28, -28), (('game', (1,), 4), ('valat', (1,), 24))),
    Case('Solo Valat silent, valat_mode=multiplies_total', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {'Variant': 'valat_mode=multiplies_total'}, '1',
         (108, -36, -36, -36), (('game', (1,), 24), ('absolut', (1,), 12), ('valat', (1,), 0))),
    Case('Solo Valat silent, double_valat_in_solo', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {'Variant': 'double_valat_in_solo=true'}, '1',
         (162, -54, -54, -54), (('game', (1,), 4), ('absolut', (1,), 2), ('valat', (1,), 48))),
    Case('Mondfang charged to the player', 'Zwanzigerrufen', 'Normal', '1',
         '1: CK CN HK T1 HJ SJ T4 CG T9 CJ / HG T6 SG T19 T11 T10 T18 DQ T20 T12 / CQ HN T7 SQ T17 SK T5 T15 TS T13 '
         '/ T8 DK DG T21 T16 HQ T14 DN DJ SN',
         'CK T18 CQ T14 T20 T15 T8 T1 T19 T17 T16 T9 T6 TS T21 T4 T13 SN CN T10 SK HQ SJ SG HN DN HK HG CG T12 T5 DJ '
         'T11 T7 DG HJ DQ SQ DK CJ',
         {'Variant': 'mondfang=player'}, '1',
         (0, 0, 2, -2), (('game', (3, 4), 1), ('mondfang', (1, 2, 3), 1))),
    Case('Absolut announced and made at 56', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {'Announcements': '1: Absolut'}, '1',
         (3, -3, -3, 3), (('game', (1, 4), 1), ('absolut', (1, 4), 2))),
    Case('Absolut dagegen failed at 56, Retour on the game', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {'Announcements': '2: Absolut dagegen; 1: Retour'}, '1',
         (6, -6, -6, 6), (('game', (1, 4), 4), ('absolut', (1, 4), 2))),
    Case('Absolut announced and failed at 32: no silent one beside it', 'Zwanzigerrufen', 'Normal', '1',
         '1: T16 CQ T21 SG SN T15 T11 SJ T7 DK / T20 T4 SQ T10 HG T14 DQ HK CN T6 / SK T1 CJ CG T12 TS T13 DJ T18 '
         'T19 / T5 T17 DN HQ CK HN T9 T8 HJ DG',
         'T11 T4 T18 T9 SK T5 SN SQ DG DK DQ DJ T15 T20 T13 T8 T10 T12 T17 T21 T7 T14 T1 HJ T6 T19 HQ T16 CJ CK CQ '
         'CN HN SG HK TS CG DN SJ HG',
         {'Announcements': '1: Absolut'}, '1',
         (-3, -3, 3, 3), (('game', (3, 4), 1), ('absolut', (3, 4), 2))),
    Case('Pagat dagegen made, with the Kontra it needs', 'Zwanzigerrufen', 'Normal', '1',
         '1: HJ SQ DQ DG T17 CQ T9 HQ DJ T18 / SJ T14 T4 DK T13 CN HK HG CG T19 / T1 DN T12 CK T15 T16 SN T11 T10 '
         'T21 / SG T5 SK T8 T20 T7 T6 TS HN CJ',
         'DJ DK DN T8 T7 T18 T13 T10 DQ T14 T16 T20 TS T17 T19 T12 SK SQ SJ SN HN HJ HG T15 T21 T6 T9 T4 T11 T5 HQ '
         'CN CK CJ CQ CG T1 SG DG HK',
         {'Announcements': '2: Kontra; 3: Pagat dagegen'}, '1',
         (-4, 4, 4, -4), (('game', (2, 3), 2), ('pagat_ultimo', (2, 3), 2))),
    Case('Pagat announced and played early: failed', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {'Announcements': '1: Pagat'}, '1',
         (0, 0, 0, 0), (('game', (1, 4), 1), ('absolut', (1, 4), 1), ('pagat_ultimo', (2, 3), 2))),
    Case('Solo Valat announced and made', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {'Announcements': '1: Valat'}, '1',
         (162, -54, -54, -54), (('game', (1,), 4), ('absolut', (1,), 2), ('valat', (1,), 48))),
    Case('Valat dagegen failed: the Kontra it includes', 'Zwanzigerrufen', 'Solo', '1',
         '1: TS T21 T20 T19 T18 T17 T16 T15 T14 T13 / CN T10 SQ CG T7 DJ HG SK T12 T9 / T8 DN SN DG SJ T5 DK HJ DQ '
         'CJ / T4 T11 HK T1 CK HQ HN T6 CQ SG',
         'T15 T9 T8 T11 T21 T7 T5 T1 TS T10 DQ T6 T14 T12 DN T4 T19 HG SJ CK T18 DJ DK SG T20 CN DG CQ T16 CG CJ HN '
         'T17 SQ SN HQ T13 SK HJ HK',
         {'Announcements': '2: Valat dagegen'}, '1',
         (174, -58, -58, -58), (('game', (1,), 8), ('absolut', (1,), 2), ('valat', (1,), 48))),
    Case('Valat announced and failed at 56', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {'Announcements': '1: Valat'}, '1',
         (-10, 10, 10, -10), (('game', (1, 4), 1), ('absolut', (1, 4), 1), ('valat', (2, 3), 12))),
    Case('Kontra, Retour, Supra, Resupra on the game', 'Zwanzigerrufen', 'Normal', '1',
         '1: T1 DG DQ CK T19 TS T7 T8 CQ HQ / T12 CG SJ CN T13 T9 T16 T15 SK T14 / HG DN HJ T5 SN DK T21 CJ HN SG / '
         'SQ T17 T18 HK T6 T20 DJ T10 T11 T4',
         'TS T9 T5 T20 T1 T14 T21 T11 DK DJ DQ T15 CG CJ T18 CK T17 T19 T12 SG DG T16 DN T10 SJ SN SQ T8 T7 T13 HG '
         'T6 CN HN T4 CQ HK HQ SK HJ',
         {'Announcements': '2: Kontra; 1: Retour; 3: Supra; 4: Resupra'}, '1',
         (17, -17, -17, 17), (('game', (1, 4), 16), ('absolut', (1, 4), 1))),
    Case('Suit Solo: Valat announced and failed, Kontra on the game', 'Zwanzigerrufen', 'SuitSolo', '4',
         '1: HN SJ HJ T9 T16 T13 T1 T21 T10 T14 / DQ T6 HQ SG T15 T20 T4 T11 DJ HG / SK CK HK T7 T8 DN T18 DK CJ DG '
         '/ CG CN T17 CQ T12 SN T19 SQ TS T5',
         'SJ SG SK SQ DN T19 T13 DQ HG HK TS HN DG T12 T10 DJ HQ T8 T17 HJ T4 T18 T5 T9 CJ CN T1 T15 SN T21 T6 T7 CG '
         'T14 T20 CK DK CQ T16 T11',
         {'Announcements': '1: Kontra; 4: Valat'}, '1',
         (59, 59, 59, -177), (
             ('game', (1, 2, 3), 8),
             ('absolut', (1, 2, 3), 1),
             ('valat', (1, 2, 3), 48),
             ('four_kings', (1, 2, 3), 2),
         )),
    Case('Rufer E D=60 tricks=3 L=0', 'Schafkopf', 'Rufer E', '1',
         '1: S8 SU SZ GK H7 S7 EZ GA / SK EA E7 G8 HU SA GO HZ / EO EK HA H8 H9 HK S9 G9 / G7 E8 GZ SO GU EU E9 HO',
         'SZ SA S9 GZ G8 G9 G7 GK H7 HU H8 SO GU SU HZ HA E9 EZ EA EK GO EO HO S8 HK EU S7 E7 E8 GA SK H9',
         {}, '1',
         (-1, -1, 1, 1), (('game', (3, 4), 1),)),
    Case('Rufer E D=61 tricks=4 L=0', 'Schafkopf', 'Rufer E', '1',
         '1: G8 EU EZ HZ SK GU G7 GO / E8 HA S8 GK S7 E7 EO HO / S9 SO G9 SA E9 GZ EA HU / H9 SU H7 GA H8 SZ HK EK',
         'EZ E8 EA EK HU H9 GO HA HZ HO SO H8 GK G9 GA G7 SU GU EO SA E7 E9 SZ SK GZ H7 G8 S7 HK EU S8 S9',
         {}, '1',
         (1, -1, 1, -1), (('game', (1, 3), 1),)),
    Case('Rufer E D=30 tricks=4 L=0', 'Schafkopf', 'Rufer E', '1',
         '1: HU SZ GU HK EZ H9 HZ E7 / E8 S9 GK SO SU EU E9 H8 / G7 HA EO H7 SK S8 HO SA / GZ G9 G8 S7 EK GO GA EA',
         'GU SU H7 GO G9 H9 GK G7 HZ SO HO GA SA S7 SZ S9 HA GZ HU EU E8 SK EA E7 G8 HK E9 S8 EZ H8 EO EK',
         {}, '1',
         (-2, 2, 2, -2), (('game', (2, 3), 1), ('schneider', (2, 3), 1))),
    Case('Rufer E D=31 tricks=2 L=0', 'Schafkopf', 'Rufer E', '1',
         '1: EZ E7 G7 S9 EO SA EK SZ / E8 EA H9 GK E9 G8 S8 GA / HK H7 S7 SK SU GZ HA H8 / EU HU HO GU GO HZ SO G9',
         'EO H9 HK SO S9 S8 SK GU HO SA GK H8 G9 G7 GA GZ G8 H7 EU E7 HZ SZ E8 SU S7 HU EK E9 GO EZ EA HA',
         {}, '1',
         (-1, -1, 1, 1), (('game', (3, 4), 1),)),
    Case('Rufer E D=90 tricks=5 L=0', 'Schafkopf', 'Rufer E', '1',
         '1: HZ EK GZ HO SA EU HU G8 / GA HK GO EZ H8 G7 S9 E7 / GK SZ SK SO GU E9 EA HA / E8 S7 SU S8 EO H7 H9 G9',
         'HZ HK SO H9 GU SU HO GO GA GK G9 G8 E7 EA E8 EK HA H7 HU H8 EU S9 E9 EO S7 SA EZ SK GZ G7 SZ S8',
         {}, '1',
         (1, -1, 1, -1), (('game', (1, 3), 1),)),
    Case('Rufer E D=91 tricks=6 L=0', 'Schafkopf', 'Rufer E', '1',
         '1: SU E8 GO GU G9 G8 SO S9 / HA HK G7 EZ H8 E9 S7 EO / EK HZ H9 GK SA SK H7 GZ / E7 S8 EU SZ HO EA GA HU',
         'SO H8 H9 EU SU HK HZ HU SZ S9 S7 SK EA E8 E9 EK S8 GO G7 SA G9 EZ GK GA HO GU EO H7 HA GZ E7 G8',
         {}, '1',
         (2, -2, -2, 2), (('game', (1, 4), 1), ('schneider', (1, 4), 1))),
    Case('Solo H D=60 tricks=3 L=0', 'Schafkopf', 'Solo H', '2',
         '1: SZ HK HZ S9 H9 HU S8 EO / E8 G9 HO GA H8 G7 SK SO / GU HA GO H7 SU E9 GK G8 / SA EA GZ EZ EU E7 S7 EK',
         'EO SO GO EU HU H8 H7 EA SZ SK GU S7 HA GZ HZ HO GA GK E7 S9 E8 E9 EK H9 HK G7 SU EZ G8 SA S8 G9',
         {}, '1',
         (5, -15, 5, 5), (('game', (1, 3, 4), 5),)),
    Case('Solo H D=91 tricks=5 L=0', 'Schafkopf', 'Solo H', '3',
         '1: EK HO G7 E7 S7 HU S9 E9 / H7 GK EU G9 SO S8 SA E8 / GZ GO SK EO G8 SZ H8 HK / HA GU GA EA EZ H9 SU HZ',
         'HO SO GO SU H8 HA HU H7 S7 S8 SK GA HK HZ S9 EU GK GZ EA G7 G8 H9 E9 G9 GU E7 SA EO SZ EZ EK E8',
         {}, '1',
         (-6, -6, 18, -6), (('game', (3,), 5), ('schneider', (3,), 1))),
    Case('Wenz D=30 tricks=3 L=0', 'Schafkopf', 'Wenz', '1',
         '1: E7 HK EU S8 GZ E9 HZ EO / EK G8 G7 GA H8 SZ S7 HA / S9 EZ HO EA GK H7 HU SK / SO G9 GO SA GU SU E8 H9',
         'S8 S7 S9 SO GU EU G7 HU E7 EK EA E8 HO H9 HK H8 GZ G8 GK GO EO HA EZ SA SK G9 E9 SZ GA H7 SU HZ',
         {}, '1',
         (-18, 6, 6, 6), (('game', (2, 3, 4), 5), ('schneider', (2, 3, 4), 1))),
    Case('Rufer G D=0 tricks=0 L=0', 'Schafkopf', 'Rufer G', '1',
         '1: S8 HA E9 G9 S9 S7 SA H9 / E8 HK HZ EZ H7 SU SZ GO / SO EO SK H8 GK GU GZ HU / GA HO EK G7 G8 E7 EU EA',
         'HA GO SO HO HZ EO EU H9 GK GA G9 SU H7 HU EA SA SK EK S8 SZ HK GU G7 S9 H8 E7 E9 E8 GZ G8 S7 EZ',
         {}, '1',
         (-3, 3, 3, -3), (('game', (2, 3), 1), ('schwarz', (2, 3), 2))),
    Case('Rufer G D=0 tricks=1 L=5', 'Schafkopf', 'Rufer G', '1',
         '1: E7 GU H9 SZ G7 SA EK S9 / GZ H7 G9 E9 EA GA HZ G8 / GK E8 EU HK SU SO HU S7 / HA HO EZ GO SK S8 EO H8',
         'S9 G8 S7 S8 SZ G9 SU SK SO H8 GU H7 E8 EZ EK E9 GO H9 HZ EU HO G7 EA HK EO SA GZ HU HA E7 GA GK',
         {}, '1',
         (-7, -7, 7, 7), (('game', (3, 4), 1), ('schneider', (3, 4), 1), ('laufende', (3, 4), 5))),
    Case('Solo H D=120 tricks=8 L=7', 'Schafkopf', 'Solo H', '1',
         '1: EO GO HO SO EU GU HU HA / E7 S9 E9 EA GK G8 SK HZ / H9 H7 EK H8 SZ E8 HK S8 / GZ G7 GA EZ G9 SU S7 SA',
         'HO HZ H8 SU HA GK H9 S7 HU E7 HK G7 EO EA H7 EZ SO SK E8 G9 GU E9 EK SA EU G8 SZ GZ GO S9 S8 GA',
         {}, '1',
         (42, -14, -14, -14), (('game', (1,), 5), ('schwarz', (1,), 2), ('laufende', (1,), 7))),
    Case('SoloTout H D=120 tricks=8 L=7', 'Schafkopf', 'SoloTout H', '1',
         '1: EO GO HO SO EU GU HU HA / E7 S9 E9 EA GK G8 SK HZ / H9 H7 EK H8 SZ E8 HK S8 / GZ G7 GA EZ G9 SU S7 SA',
         'HO HZ H8 SU HA GK H9 S7 HU E7 HK G7 EO EA H7 EZ SO SK E8 G9 GU E9 EK SA EU G8 SZ GZ GO S9 S8 GA',
         {}, '1',
         (72, -24, -24, -24), (('game', (1,), 10), ('laufende', (1,), 14))),
    Case('SoloTout H D=105 tricks=7 L=7', 'Schafkopf', 'SoloTout H', '1',
         '1: EO GO HO SO EU GU HU H7 / S8 E9 GA EZ SA HA G7 EA / G9 S9 H9 E7 EK G8 GZ S7 / SZ E8 SU SK GK HZ H8 HK',
         'H7 HA H9 HK SA S7 SK GU HO S8 S9 SU GO EA GZ HZ SO GA E7 H8 EO G7 G9 E8 EU E9 EK SZ HU EZ G8 GK',
         {}, '1',
         (-72, 24, 24, 24), (('game', (2, 3, 4), 10), ('laufende', (2, 3, 4), 14))),
    Case('Wenz D=6 tricks=1 L=0', 'Schafkopf', 'Wenz', '3',
         '1: SK G8 G9 HA H8 GZ S7 HZ / GA H7 GK SZ H9 G7 E7 SU / E9 SO S8 EZ SA GO EK GU / S9 HK HO E8 HU EO EA EU',
         'H8 H7 E9 HK HO HZ H9 SA GZ G7 GO EO HA GK SO S9 G8 GA EZ EU EA SK E7 EK HU G9 SU GU S8 E8 S7 SZ',
         {}, '1',
         (6, 6, -18, 6), (('game', (1, 2, 4), 5), ('schneider', (1, 2, 4), 1))),
    Case('Wenz D=97 tricks=6 L=2', 'Schafkopf', 'Wenz', '4',
         '1: GO H8 GZ E8 SK G8 GK HK / S8 G7 H7 SZ HU SU HO S7 / HZ H9 E7 EK S9 EO E9 G9 / GU EZ EU EA SA HA GA SO',
         'H8 HO HZ HA GU G8 HU EK SO SK S8 S9 HK H7 H9 EU GA GK G7 G9 EA E8 SU EO SZ E7 SA GO EZ GZ S7 E9',
         {}, '1',
         (-8, -8, -8, 24), (('game', (4,), 5), ('schneider', (4,), 1), ('laufende', (4,), 2))),
    Case('Wenz D=14 tricks=1 L=3', 'Schafkopf', 'Wenz', '1',
         '1: GZ SA G8 GK SU EZ E9 EO / H8 H9 G9 GU H7 HA SO E8 / E7 S9 GA SZ EA SK EK S8 / HU S7 HO GO EU HZ HK G7',
         'E9 E8 EK EU S7 SA SO S8 SU GU SZ HU HA GA HZ EZ H9 S9 HK GK HO GZ H7 E7 G7 G8 G9 EA H8 SK GO EO',
         {}, '1',
         (-27, 9, 9, 9), (('game', (2, 3, 4), 5), ('schneider', (2, 3, 4), 1), ('laufende', (2, 3, 4), 3))),
    Case('Wenz D=61 tricks=4 L=4', 'Schafkopf', 'Wenz', '3',
         '1: GA E9 HO HU SK G9 E8 GK / H8 S9 G8 HK SU H9 SZ GO / HA E7 EZ S8 HZ SO EA SA / EK EU S7 GU H7 EO GZ G7',
         'E8 SZ E7 EO G7 GA GO EZ HO H9 HA H7 EA EK E9 S9 SA S7 SK H8 SO GZ GK G8 S8 GU G9 HK EU HU SU HZ',
         {}, '1',
         (-9, -9, 27, -9), (('game', (3,), 5), ('laufende', (3,), 4))),
    Case('Rufer S D=74 tricks=4 L=0', 'Schafkopf', 'Rufer S', '1',
         '1: EO E7 S9 HU HO E9 EA GK / G8 SK HZ H9 SO H7 EK H8 / EU SZ E8 HK GO S8 GZ GU / G7 HA GA EZ G9 SU S7 SA',
         'HO H7 GU HA GK G8 GZ G7 GO SU EO HZ HU SO EU S7 H8 HK G9 E7 S8 SA S9 SK EZ EA EK E8 E9 H9 SZ GA',
         {}, '1',
         (1, -1, -1, 1), (('game', (1, 4), 1),)),
    Case('Rufer S D=43 tricks=3 L=3', 'Schafkopf', 'Rufer S', '1',
         '1: SZ GK H7 G8 HK EA HZ EK / GZ EZ S7 HO GU H8 SK S8 / SO HA H9 E9 SA S9 EU G9 / GO G7 SU E8 EO GA E7 HU',
         'HK GU HA EO HU H7 H8 SO E9 E7 EK EZ S7 SA G7 SZ H9 SU HZ HO GZ G9 GA G8 E8 EA SK EU S9 GO GK S8',
         {}, '1',
         (-4, 4, -4, 4), (('game', (2, 4), 1), ('laufende', (2, 4), 3))),
    Case('Rufer S D=49 tricks=3 L=4', 'Schafkopf', 'Rufer S', '1',
         '1: EU H8 H7 EK EA HZ S8 G8 / S7 SA SU S9 GK E7 GU HU / GA SZ EZ G9 GZ GO HO G7 / EO E8 HK HA SK E9 SO H9',
         'H8 GU GO EO HK H7 HU HO GA SO G8 GK SK S8 SA SZ E7 EZ E9 EK G7 E8 HZ SU S9 G9 HA EA H9 EU S7 GZ',
         {}, '1',
         (-5, -5, 5, 5), (('game', (3, 4), 1), ('laufende', (3, 4), 4))),
    Case('Rufer S D=39 tricks=2 L=5', 'Schafkopf', 'Rufer S', '1',
         '1: E9 GZ SZ SU E7 SK H8 EZ / S7 H7 HZ GO S9 EU EK G9 / EA G8 HO H9 HK HU EO SO / G7 SA GK GU E8 GA S8 HA',
         'SZ S7 HU SA EO GU SU EU EA E8 E7 EK HK HA H8 HZ GK GZ G9 G8 E9 S9 H9 G7 HO S8 SK GO H7 SO GA EZ',
         {}, '1',
         (-6, 6, 6, -6), (('game', (2, 3), 1), ('laufende', (2, 3), 5))),
    Case('Rufer S D=32 tricks=1 L=6', 'Schafkopf', 'Rufer S', '1',
         '1: G7 H7 E7 S8 G8 SK SU S9 / E9 HU HA H9 EA SA H8 G9 / GK GA EK S7 EZ HO GZ HZ / EO GO E8 GU SZ EU HK SO',
         'H7 HU HZ GU HK SU H8 HO GZ E8 G7 G9 GK EU G8 H9 SO S8 HA S7 EO SK E9 EK GO S9 EA EZ SZ E7 SA GA',
         {}, '1',
         (-7, -7, 7, 7), (('game', (3, 4), 1), ('laufende', (3, 4), 6))),
    Case('Rufer E D=59 tricks=3, the called ace ran away', 'Schafkopf', 'Rufer E', '1',
         '1: GK SU E9 H9 G9 SO SZ H7 / GU EZ HO EA HA S9 EK E7 / E8 GO GA EU S7 S8 G8 G7 / HU SA GZ HZ SK HK H8 EO',
         'GK GU G7 GZ S9 S7 SA SZ HU H7 HO GO S8 SK G9 HA E7 E8 HZ E9 H8 SU EA EU G8 EO H9 EK HK SO EZ GA',
         {}, '1',
         (-1, -1, 1, 1), (('game', (3, 4), 1),)),
    Case('Sie: 20 + 4 x 8, no play', 'Schafkopf', 'Sie', '2',
         '1: E7 E8 E9 GA GZ HA SA SZ / EO GO HO SO EU GU HU SU / EA EZ EK G7 G8 G9 H7 H8 / SK GK S7 HZ HK H9 S9 S8',
         '',
         {}, '1',
         (-52, 156, -52, -52), (('game', (2,), 52),)),
    Case('Wenz Tout lost in trick 1, play stops there', 'Schafkopf', 'WenzTout', '1',
         '1: EU GU HU EA EZ EK GA HO / SU E9 E8 E7 GK G9 G8 G7 / HA HZ HK GZ H9 H8 H7 EO / SA SZ SK SO S9 S8 S7 GO',
         'HO E7 HA S7',
         {}, '1',
         (-48, 16, 16, 16), (('game', (2, 3, 4), 10), ('laufende', (2, 3, 4), 6))),
    Case('3p Trump H pot 13 att 2 wins [1, 2, 3, 2]', 'Kratzen', 'Trump H', '2',
         '1: HK GK H8 E7 / EO HU HA S9 / G9 H7 H9 GA',
         'S9 H9 HK GK HU GA EO H7 E7 G9 H8 HA',
         {'Seats': '3', 'Pot': '13'}, '2',
         (3, 6, 3), (
             ('trick 1', (1,), 3),
             ('trick 2', (2,), 3),
             ('trick 3', (3,), 3),
             ('trick 4', (2,), 3),
         ), pot_change=-12),
    Case('3p Trump H pot 13 att 3 wins [1, 3, 1, 1]', 'Kratzen', 'Trump H', '3',
         '1: HA GK SO E8 / HZ S7 GO GZ / EA HK SU SZ',
         'HK HA HZ E8 S7 EA SZ SO GZ GK GO SU',
         {'Seats': '3', 'Pot': '13'}, '3',
         (9, -13, -23), (
             ('trick 1', (1,), 3),
             ('trick 2', (3,), 3),
             ('trick 3', (1,), 3),
             ('trick 4', (1,), 3),
             ('penalty', (), 13),
             ('penalty', (), 26),
         ), pot_change=27),
    Case('3p Trump H pot 7 att 1 wins [3, 3, 3, 2]', 'Kratzen', 'Trump H', '1',
         '1: SZ SU S8 G8 / EK E9 SK EO / H7 SO EZ HK',
         'G8 EO H7 HK SZ EK EZ SU E9 SO S8 SK',
         {'Seats': '3', 'Pot': '7'}, '1',
         (-14, 1, 3), (
             ('trick 1', (3,), 1),
             ('trick 2', (3,), 1),
             ('trick 3', (3,), 1),
             ('trick 4', (2,), 1),
             ('penalty', (), 14),
         ), pot_change=10),
    Case('3p Trump H pot 4 att 2 wins [2, 2, 2, 2]', 'Kratzen', 'Trump H', '2',
         '1: S9 GK G7 G9 / GA GO HA HO / EA G8 GU E7',
         'HA EA G9 HO G8 GK GO GU G7 GA E7 S9',
         {'Seats': '3', 'Pot': '4'}, '2',
         (-4, 4, -4), (
             ('trick 1', (2,), 1),
             ('trick 2', (2,), 1),
             ('trick 3', (2,), 1),
             ('trick 4', (2,), 1),
             ('penalty', (), 4),
             ('penalty', (), 4),
         ), pot_change=4),
    Case('3p Trump S Muss pot 13 att 1 wins [2, 1, 1, 3]', 'Kratzen', 'Trump S Muss', '1',
         '1: G9 EK H9 H7 / E8 EA S6 EU / G8 H8 S8 E9',
         'H9 S6 H8 EU E9 EK G9 E8 G8 H7 EA S8',
         {'Seats': '3', 'Pot': '13'}, '1',
         (0, 0, 0), (), pot_change=0),
    Case('3p Trump S Muss pot 7 att 1 wins [3, 2, 3, 3]', 'Kratzen', 'Trump S Muss', '1',
         '1: EO E7 H8 G8 / HO SU GO HA / GA GZ S7 GU',
         'G8 GO GA GZ EO SU HO S7 H8 GU E7 HA',
         {'Seats': '3', 'Pot': '7'}, '1',
         (-14, 0, 0), (('penalty', (), 14),), pot_change=14),
    Case('3p Trump E SevenMuss pot 13 att 2 wins [1, 2, 3, 2]', 'Kratzen', 'Trump E SevenMuss', '2',
         '1: SU GZ EO G7 / GU HU E9 EZ / E7 H9 SA HA',
         'EZ E7 EO GZ GU SA HU HA SU H9 G7 E9',
         {'Seats': '3', 'Pot': '13'}, '2',
         (0, 0, 0), (), pot_change=0),
    Case('3p Trump E SevenMuss pot 7 att 1 wins [2, 2, 2, 2]', 'Kratzen', 'Trump E SevenMuss', '1',
         '1: SZ SU S8 G8 / EK E9 SK EO / H7 SO EZ HK',
         'G8 EK EZ E9 H7 SU EO HK S8 SK SO SZ',
         {'Seats': '3', 'Pot': '7'}, '1',
         (-14, 0, -7), (('penalty', (), 14), ('penalty', (), 7)), pot_change=21),
    Case('3p Trump E SevenMuss pot 4 att 1 wins [1, 1, 1, 1]', 'Kratzen', 'Trump E SevenMuss', '1',
         '1: EZ EA GA EO / GZ S8 GO H9 / G8 S6 SA S9',
         'EA S8 S6 EZ GO G8 EO GZ S9 GA H9 SA',
         {'Seats': '3', 'Pot': '4'}, '1',
         (0, -4, -4), (('penalty', (), 4), ('penalty', (), 4)), pot_change=8),
    Case('4p Trump H pot 13 att 1 wins [4, 2, 1, 1]', 'Kratzen', 'Trump H', '1',
         '1: EA S7 G7 GO / E8 S8 G9 HA / HO E7 EK SO / SK GZ SZ HU',
         'S7 S8 SO SK HU EA HA HO G9 EK GZ GO G7 E8 E7 SZ',
         {'Seats': '4', 'Pot': '13'}, '1',
         (6, 3, -13, 3), (
             ('trick 1', (4,), 3),
             ('trick 2', (2,), 3),
             ('trick 3', (1,), 3),
             ('trick 4', (1,), 3),
             ('penalty', (), 13),
         ), pot_change=1),
    Case('4p Trump H pot 13 att 3 wins [1, 3, 1, 1]', 'Kratzen', 'Trump H', '3',
         '1: SK HZ EA E9 / SO S6 GK GU / GZ HA S7 G7 / SU E8 S8 G9',
         'G7 G9 HZ GK E9 S6 HA E8 S7 SU SK SO EA GU GZ S8',
         {'Seats': '4', 'Pot': '13'}, '3',
         (9, -13, -23, -13), (
             ('trick 1', (1,), 3),
             ('trick 2', (3,), 3),
             ('trick 3', (1,), 3),
             ('trick 4', (1,), 3),
             ('penalty', (), 13),
             ('penalty', (), 26),
             ('penalty', (), 13),
         ), pot_change=40),
    Case('4p Trump H pot 7 att 1 wins [2, 3, 3, 3]', 'Kratzen', 'Trump H', '1',
         '1: SA EZ GZ G7 / G8 GK HU S9 / EK H9 E9 HK / GU SZ H7 EO',
         'EZ HU EK EO GK H9 GU GZ HK H7 SA S9 E9 SZ G7 G8',
         {'Seats': '4', 'Pot': '7'}, '1',
         (-14, 1, 3, -7), (
             ('trick 1', (2,), 1),
             ('trick 2', (3,), 1),
             ('trick 3', (3,), 1),
             ('trick 4', (3,), 1),
             ('penalty', (), 14),
             ('penalty', (), 7),
         ), pot_change=17),
    Case('4p Trump H pot 4 att 2 wins [2, 2, 2, 2]', 'Kratzen', 'Trump H', '2',
         '1: S7 G9 SA SO / HZ HA SK GK / H7 HK SZ GZ / S9 G8 EU GO',
         'HA HK GO SA HZ H7 S9 SO SK SZ G8 S7 GK GZ EU G9',
         {'Seats': '4', 'Pot': '4'}, '2',
         (-4, 4, -4, -4), (
             ('trick 1', (2,), 1),
             ('trick 2', (2,), 1),
             ('trick 3', (2,), 1),
             ('trick 4', (2,), 1),
             ('penalty', (), 4),
             ('penalty', (), 4),
             ('penalty', (), 4),
         ), pot_change=8),
    Case('5p Trump H pot 13 att 1 wins [3, 2, 1, 1]', 'Kratzen', 'Trump H', '1',
         '1: SO GA H8 S6 / EZ HO SZ EU / S9 SA G8 SK / E8 SU G9 HZ / GO EA EO S8',
         'SO SZ SA SU S8 G8 G9 GO GA HO EZ SK E8 EO H8 S6 EU S9 HZ EA',
         {'Seats': '5', 'Pot': '13'}, '1',
         (6, 3, 3, -13, -13), (
             ('trick 1', (3,), 3),
             ('trick 2', (2,), 3),
             ('trick 3', (1,), 3),
             ('trick 4', (1,), 3),
             ('penalty', (), 13),
             ('penalty', (), 13),
         ), pot_change=14),
    Case('5p Trump H pot 13 att 5 wins [1, 5, 1, 4]', 'Kratzen', 'Trump H', '5',
         '1: HA GK HK GO / S8 SA GZ E7 / SZ H8 G9 SO / H7 GU E9 SU / S7 GA EK EZ',
         'EZ HK E7 H8 E9 GK GZ G9 GU GA S7 HA S8 SZ SU GO SA SO H7 EK',
         {'Seats': '5', 'Pot': '13'}, '5',
         (6, -13, -13, 3, -23), (
             ('trick 1', (1,), 3),
             ('trick 2', (5,), 3),
             ('trick 3', (1,), 3),
             ('trick 4', (4,), 3),
             ('penalty', (), 13),
             ('penalty', (), 13),
             ('penalty', (), 26),
         ), pot_change=40),
    Case('6p Trump H pot 13 att 1 wins [1, 6, 2, 1]', 'Kratzen', 'Trump H', '1',
         '1: S6 EZ EO EK / E7 HZ HU E9 / H9 GU S8 E8 / H7 S7 GK G9 / H8 GO SZ GZ / SU HO S9 EA',
         'S6 HZ H9 H7 H8 HO EO E9 E8 S7 GO EA SU EK HU S8 G9 SZ E7 GU GK GZ S9 EZ',
         {'Seats': '6', 'Pot': '13'}, '1',
         (6, 3, -13, -13, -13, 3), (
             ('trick 1', (1,), 3),
             ('trick 2', (6,), 3),
             ('trick 3', (2,), 3),
             ('trick 4', (1,), 3),
             ('penalty', (), 13),
             ('penalty', (), 13),
             ('penalty', (), 13),
         ), pot_change=27),
    Case('6p Trump H pot 13 att 4 wins [5, 4, 5, 2]', 'Kratzen', 'Trump H', '4',
         '1: EU G8 S8 GO / E9 S6 SK GU / SO SA GK EK / HZ E7 H7 EO / EA GZ HA S9 / HU G7 SU S7',
         'HZ HA HU EU S6 GK GZ G7 GO GU SA H7 EO EA S7 G8 E9 EK S9 SU S8 SK SO E7',
         {'Seats': '6', 'Pot': '13'}, '4',
         (-13, 3, -13, -23, 6, -13), (
             ('trick 1', (5,), 3),
             ('trick 2', (4,), 3),
             ('trick 3', (5,), 3),
             ('trick 4', (2,), 3),
             ('penalty', (), 13),
             ('penalty', (), 13),
             ('penalty', (), 26),
             ('penalty', (), 13),
         ), pot_change=53),
    Case('6p Trump E SevenMuss pot 13 att 6 wins [5, 5, 6, 5]', 'Kratzen', 'Trump E SevenMuss', '6',
         '1: HU G7 SU G8 / EO H8 S7 S9 / SO SK HA SZ / SA GU EZ HO / E7 GZ E9 EA / GO HZ E8 H9',
         'E8 G7 EO SK EZ EA E7 HZ SU S9 HA HO GZ GO G8 H8 SO GU H9 HU S7 SZ SA E9',
         {'Seats': '6', 'Pot': '13'}, '6',
         (-13, -13, -13, -13, 0, 0), (
             ('penalty', (), 13),
             ('penalty', (), 13),
             ('penalty', (), 13),
             ('penalty', (), 13),
         ), pot_change=52),
    Case('4p Trump G pot 10 att 3 wins [2, 3, 3, 3]', 'Kratzen', 'Trump G', '3',
         '1: E7 HZ H8 H7 / GO EA E9 S8 / G9 EO G8 S9 / HU S7 HK EU',
         'H7 GO G9 HU E9 EO EU E7 G8 S7 HZ S8 S9 HK H8 EA',
         {'Seats': '4', 'Pot': '10', 'Variant': 'first_leader=forehand'}, '1',
         (-10, 2, 6, -10), (
             ('trick 1', (2,), 2),
             ('trick 2', (3,), 2),
             ('trick 3', (3,), 2),
             ('trick 4', (3,), 2),
             ('penalty', (), 10),
             ('penalty', (), 10),
         ), pot_change=12),
    Case('6p Trump S pot 1 att 3 wins [5, 2, 5, 4]', 'Kratzen', 'Trump S', '3',
         '1: E7 HZ H8 H7 / GO EA E9 S8 / G9 EO G8 S9 / HU S7 HK EU / H9 S6 EZ SZ / E8 HO GU SU',
         'S9 S7 S6 SU H7 S8 EZ E8 E7 EA EO EU GO G9 HU SZ GU HZ H9 HO H8 E9 G8 HK',
         {'Seats': '6', 'Pot': '1'}, '3',
         (-1, 0, -2, 0, 0, -1), (
             ('trick 1', (5,), 0),
             ('trick 2', (2,), 0),
             ('trick 3', (5,), 0),
             ('trick 4', (4,), 0),
             ('penalty', (), 1),
             ('penalty', (), 2),
             ('penalty', (), 1),
         ), pot_change=4),
    Case('3p Trump S pot 0 att 2 wins [3, 2, 3, 3]', 'Kratzen', 'Trump S', '2',
         '1: E7 HZ H8 H7 / GO EA E9 S8 / G9 EO G8 S9',
         'S8 S9 HZ G8 H8 GO E9 EO E7 G9 H7 EA',
         {'Seats': '3', 'Pot': '0'}, '2',
         (0, 0, 0), (
             ('trick 1', (3,), 0),
             ('trick 2', (2,), 0),
             ('trick 3', (3,), 0),
             ('trick 4', (3,), 0),
             ('penalty', (), 0),
             ('penalty', (), 0),
         ), pot_change=0),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{case.game[:2]} {case.name}" for case in CASES])
def test_a_boundary_scores_as_the_rule_book_says(case):
    settlement = score_deal(solver.parse_positions(record_text(case))[0])
    assert tuple((item.name, item.winners, item.value) for item in settlement.items) == case.items
    assert settlement.payments == case.payments and settlement.pot_change == case.pot_change
    assert sum(settlement.payments) + settlement.pot_change == 0


def test_the_command_scores_every_boundary_alike(tmp_path):
    """One file of every case: `stich score --json` prints one document a record, in order, with the same payments."""
    path = tmp_path / "boundaries.tbn"
    path.write_text("\n".join(record_text(case) for case in CASES), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    documents = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert [(d["record"]["event"], tuple(d["payments"]), d["pot_change"]) for d in documents] == [
        (case.name, case.payments, case.pot_change) for case in CASES]
