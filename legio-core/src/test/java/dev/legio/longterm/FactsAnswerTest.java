package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FactsAnswerTest {

  @Test
  void readsJsonInsideACodeFenceWithProseAround() {
    String answer =
        """
        Here is what I found {as asked}:
        ```json
        {"facts": [
          {"category": "preference", "text": "Caesar wants bullet points", "confidence": 0.9},
          {"category": "Constraint", "text": "Never cross the Rubicon", "confidence": "1"}
        ]}
        ```
        Let me know if you need more.
        """;

    FactsAnswer.Parsed parsed = FactsAnswer.parse(answer).orElseThrow();

    assertThat(parsed.facts())
        .containsExactly(
            new ExtractedFact(FactCategory.PREFERENCE, "Caesar wants bullet points", 0.9),
            new ExtractedFact(FactCategory.CONSTRAINT, "Never cross the Rubicon", 1.0));
    assertThat(parsed.skipped()).isZero();
  }

  @Test
  void skipsAndCountsUnknownCategoriesEmptyTextsAndBadConfidences() {
    String answer =
        """
        [{"category": "gossip", "text": "Pullo snores", "confidence": 0.9},
         {"category": "project", "text": "   ", "confidence": 0.9},
         {"category": "project", "text": 42, "confidence": 0.9},
         {"category": "project", "text": "Too sure", "confidence": 90},
         {"category": "project", "text": "Unsure", "confidence": "very"},
         {"category": "project", "text": "No confidence"},
         {"category": "decision", "text": "March at dawn", "confidence": 0}]
        """;

    FactsAnswer.Parsed parsed = FactsAnswer.parse(answer).orElseThrow();

    assertThat(parsed.facts())
        .containsExactly(new ExtractedFact(FactCategory.DECISION, "March at dawn", 0));
    assertThat(parsed.skipped()).isEqualTo(6);
  }

  @Test
  void anEmptyListIsAnAnswerAndNoJsonIsNot() {
    assertThat(FactsAnswer.parse("{\"facts\": []}").orElseThrow().facts()).isEmpty();
    assertThat(FactsAnswer.parse("I found nothing worth keeping.")).isEmpty();
    assertThat(FactsAnswer.parse("{\"facts\": [{\"category\": \"project\", ")).isEmpty();
    assertThat(FactsAnswer.parse("{\"summary\": \"no facts here\"}")).isEmpty();
    assertThat(FactsAnswer.parse(null)).isEmpty();
  }
}
