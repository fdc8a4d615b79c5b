package dev.legio.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonFileProblemTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  record Token(@JsonProperty("name") String name, @JsonProperty("uses") int uses) {}

  record State(@JsonProperty("sessions") Map<String, Token> sessions) {}

  private static String problem(String json, TypeReference<?> type) {
    JsonProcessingException e =
        catchThrowableOfType(JsonProcessingException.class, () -> JSON.readValue(json, type));
    String text = JsonFileProblem.of(e);
    assertThat(text)
        .doesNotContain("java.", "dev.legio", "JsonToken", "Source", "reference chain", "`", "\n");
    return text;
  }

  @Test
  void anObjectWhereAListIsKeptIsSaidInWords() {
    assertThat(problem("{\"tokens\": []}", new TypeReference<List<Token>>() {}))
        .isEqualTo("line 1, column 1: expected a list, found an object");
  }

  @Test
  void aWrongValueDeepInTheFileNamesItsFieldAndLine() {
    assertThat(
            problem(
                "{\"sessions\": {\n  \"s1\": {\"name\": \"a\", \"uses\": \"many\"}}}",
                new TypeReference<State>() {}))
        .isEqualTo("line 2, column 31, at sessions.s1.uses: expected a number, found many");
    assertThat(problem("[{\"name\": []}]", new TypeReference<List<Token>>() {}))
        .isEqualTo("line 1, column 11, at [0].name: expected a text, found a list");
  }

  @Test
  void aSyntaxErrorIsTheParsersReasonWithoutItsSourceExcerpt() {
    assertThat(problem("{\"sessions\": {\"x\": ", new TypeReference<State>() {}))
        .startsWith("line 1, column 20, at sessions: Unexpected end-of-input");
  }
}
