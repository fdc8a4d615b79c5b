package dev.legio.errors;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * How a JSON syntax error a client caused is told (a request's body, an MCP message): where (line
 * and column) and what, in the parser's words without the class and feature names it adds for
 * programmers ({@code bound as com.fasterxml...JsonNode}, {@code StreamReadConstraints...}, {@code
 * [Source: ...]}).
 */
public final class JsonSyntax {
  private JsonSyntax() {}

  /** {@code " at line L, column C"}, or "" when the parser knows no position. */
  public static String where(JsonLocation location) {
    return location == null || location.getLineNr() < 1
        ? ""
        : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  /** The parser's reason, without the class and feature names it adds for programmers. */
  public static String what(JsonProcessingException e) {
    String reason = String.valueOf(e.getOriginalMessage());
    if (e instanceof MismatchedInputException && reason.startsWith("Trailing token")) {
      return "more follows the first JSON value; send exactly one object";
    }
    if (e instanceof StreamConstraintsException) {
      // "... exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)"
      return reason.replaceAll(", from `[^`]*`", "");
    }
    int marker = reason.indexOf(" (start marker at ");
    String plain = marker < 0 ? reason : reason.substring(0, marker);
    // "...\n at [Source: ...]" and any other line Jackson adds
    return plain.lines().findFirst().orElse("");
  }
}
