package dev.legio.usage;

import dev.legio.pricing.Tokens;
import java.math.BigDecimal;

/**
 * The turns of one group of a usage report, added up.
 *
 * @param group the group's value (an agent, a session id, a day...); null for turns that have none
 *     (no session key, no task run)
 * @param turns how many turns
 * @param tokens their tokens, each kind added up
 * @param costUsd the sum of the costs that are known; null when none is
 * @param unknownCostTurns how many turns have an unknown cost (not counted in {@code costUsd})
 * @param failedTurns how many of the turns failed (any outcome but {@link TurnOutcome#OK}); they
 *     are counted in {@code turns}, their tokens and costs in the sums
 */
public record UsageTotal(
    String group,
    long turns,
    Tokens tokens,
    BigDecimal costUsd,
    long unknownCostTurns,
    long failedTurns) {

  /** A total of turns none of which failed. */
  public UsageTotal(
      String group, long turns, Tokens tokens, BigDecimal costUsd, long unknownCostTurns) {
    this(group, turns, tokens, costUsd, unknownCostTurns, 0);
  }

  /** This total and {@code other} added up, under {@code group}. */
  public UsageTotal plus(UsageTotal other, String group) {
    BigDecimal cost =
        costUsd == null
            ? other.costUsd
            : other.costUsd == null ? costUsd : costUsd.add(other.costUsd);
    return new UsageTotal(
        group,
        turns + other.turns,
        tokens.plus(other.tokens),
        cost,
        unknownCostTurns + other.unknownCostTurns,
        failedTurns + other.failedTurns);
  }

  /** Nothing: no turns. */
  public static UsageTotal empty(String group) {
    return new UsageTotal(group, 0, Tokens.ZERO, null, 0);
  }
}
