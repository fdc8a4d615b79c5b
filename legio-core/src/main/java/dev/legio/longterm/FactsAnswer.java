package dev.legio.longterm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the model's answer to an extraction request: JSON {@code {"facts": [{"category":
 * "preference", "text": "...", "confidence": 0.9}, ...]}} (a bare array of facts is accepted too),
 * possibly inside a code fence or with prose around it. The first JSON value in the answer that has
 * that shape is used.
 *
 * <p>A fact whose category is not one of the five, whose text is empty, or whose confidence is
 * missing, not a number or outside 0 to 1 is skipped and counted; so are facts beyond {@value
 * #MAX_FACTS}. An answer with no such JSON value at all is unreadable ({@link Optional#empty()}).
 */
final class FactsAnswer {
  static final int MAX_FACTS = 50;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 64;

  /** The facts read, and how many entries were skipped. */
  record Parsed(List<ExtractedFact> facts, int skipped) {}

  private FactsAnswer() {}

  static Optional<Parsed> parse(String answer) {
    if (answer == null) {
      return Optional.empty();
    }
    int attempts = 0;
    for (int i = 0; i < answer.length() && attempts < MAX_ATTEMPTS; i++) {
      char c = answer.charAt(i);
      if (c != '{' && c != '[') {
        continue;
      }
      attempts++;
      JsonNode node;
      try {
        // Jackson reads the first value and ignores what follows it (a closing fence, prose).
        node = JSON.readTree(answer.substring(i));
      } catch (JsonProcessingException e) {
        continue;
      }
      JsonNode list = node.isArray() ? node : node.path("facts");
      if (list.isArray()) {
        return Optional.of(read(list));
      }
    }
    return Optional.empty();
  }

  private static Parsed read(JsonNode list) {
    List<ExtractedFact> facts = new ArrayList<>();
    int skipped = 0;
    for (JsonNode item : list) {
      if (facts.size() >= MAX_FACTS) {
        skipped++;
        continue;
      }
      Optional<FactCategory> category = FactCategory.fromLabel(item.path("category").asText(null));
      String text = item.path("text").asText("");
      Double confidence = confidence(item.path("confidence"));
      if (category.isEmpty() || confidence == null || !item.path("text").isTextual()) {
        skipped++;
        continue;
      }
      try {
        facts.add(new ExtractedFact(category.get(), text, confidence));
      } catch (IllegalArgumentException e) {
        skipped++;
      }
    }
    return new Parsed(facts, skipped);
  }

  private static Double confidence(JsonNode node) {
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isTextual()) {
      try {
        return Double.parseDouble(node.asText().strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
