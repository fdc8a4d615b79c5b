package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class ConsolidationDatesTest {
  // A Saturday.
  private static final LocalDate DAY = LocalDate.parse("2026-11-21");

  private static String abs(String text) {
    return ConsolidationDates.absolute(text, DAY);
  }

  @Test
  void daysAroundTheFactsDayBecomeDates() {
    assertThat(abs("The bridge fell yesterday")).isEqualTo("The bridge fell 2026-11-20");
    assertThat(abs("Report due tomorrow.")).isEqualTo("Report due 2026-11-22.");
    assertThat(abs("Today the legion marches")).isEqualTo("2026-11-21 the legion marches");
    assertThat(abs("Scouts left the day before yesterday")).isEqualTo("Scouts left 2026-11-19");
    assertThat(abs("Supplies arrive the day after tomorrow"))
        .isEqualTo("Supplies arrive 2026-11-23");
    assertThat(abs("It rained last night")).isEqualTo("It rained 2026-11-20");
  }

  @Test
  void countsAgoAndAheadBecomeDates() {
    assertThat(abs("We met 3 days ago")).isEqualTo("We met on 2026-11-18");
    assertThat(abs("Deadline in two weeks")).isEqualTo("Deadline on 2026-12-05");
    assertThat(abs("Moved camp a month ago")).isEqualTo("Moved camp on 2026-10-21");
    assertThat(abs("Review in 1 year")).isEqualTo("Review on 2027-11-21");
  }

  @Test
  void weeksMonthsYearsAndWeekdays() {
    assertThat(abs("Agreed last week")).isEqualTo("Agreed the week of 2026-11-09");
    assertThat(abs("Ship next week")).isEqualTo("Ship the week of 2026-11-23");
    assertThat(abs("Started last month")).isEqualTo("Started 2026-10");
    assertThat(abs("Budget for next year")).isEqualTo("Budget for 2027");
    assertThat(abs("Deadline is next Friday")).isEqualTo("Deadline is Friday 2026-11-27");
    assertThat(abs("Decided last Monday")).isEqualTo("Decided Monday 2026-11-16");
    // The day itself is a Saturday: "last Saturday" is a week before, "this Saturday" today.
    assertThat(abs("last saturday and this saturday"))
        .isEqualTo("Saturday 2026-11-14 and Saturday 2026-11-21");
  }

  @Test
  void otherTextAndUndatedFactsAreLeftAlone() {
    assertThat(abs("Todays are yesterdays tomorrowland"))
        .isEqualTo("Todays are yesterdays tomorrowland");
    assertThat(abs("Caesar wants bullet points")).isEqualTo("Caesar wants bullet points");
    assertThat(ConsolidationDates.absolute("due tomorrow", null)).isEqualTo("due tomorrow");
  }
}
