package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code openapi.json} documents exactly the routes the server has, no more, no fewer. */
class OpenApiTest {
  /** {@code GET /api/v1/sessions/{}}: a route with its parameters' names left out. */
  static String shape(String method, String path) {
    return method.toUpperCase(Locale.ROOT) + " " + path.replaceAll("\\{[^}]*}", "{}");
  }

  @Test
  void everyRouteIsDocumentedAndEveryDocumentedRouteExists() {
    Set<String> routes = new TreeSet<>();
    for (Route r :
        Routes.all(
            null,
            null,
            java.util.List::of,
            null,
            Readiness.alwaysReady(),
            new PeerRelay(SessionAffinity.NONE, "", java.time.Duration.ofMinutes(1)))) {
      routes.add(shape(r.method(), r.template()));
    }
    Set<String> documented = new TreeSet<>();
    JsonNode paths = OpenApiEndpoint.load().get("paths");
    for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> path = it.next();
      path.getValue().fieldNames().forEachRemaining(m -> documented.add(shape(m, path.getKey())));
    }
    assertThat(documented).containsExactlyElementsOf(routes);
  }

  @Test
  void theSessionsListingDocumentsItsPagingParametersAndCursor() {
    JsonNode list = OpenApiEndpoint.load().at("/paths/~1api~1v1~1sessions/get");
    Map<String, JsonNode> parameters = new java.util.TreeMap<>();
    list.get("parameters").forEach(p -> parameters.put(p.get("name").asText(), p));
    assertThat(parameters).containsOnlyKeys("limit", "cursor");
    assertThat(parameters.get("limit").at("/schema/default").asInt())
        .isEqualTo(SessionsEndpoint.DEFAULT_LIMIT);
    assertThat(parameters.get("limit").at("/schema/maximum").asInt())
        .isEqualTo(SessionPages.MAX_LIMIT);
    assertThat(parameters.get("cursor").get("in").asText()).isEqualTo("query");
    JsonNode answer = list.at("/responses/200/content/application~1json/schema/properties");
    assertThat(answer.has("next_cursor")).isTrue();
    assertThat(list.at("/responses/400").isMissingNode()).isFalse();
  }

  @Test
  void aTaskWhoseSessionAnotherNodeTookOverIsDocumentedAs409() {
    JsonNode conflict = OpenApiEndpoint.load().at("/paths/~1api~1v1~1tasks/post/responses/409");
    assertThat(conflict.get("description").asText())
        .contains("busy past lock_wait_seconds", "another Legio node took the session over")
        .contains("nothing of the turn was stored", "send it again")
        .contains("When the model's answer had come, it is in reply");
    JsonNode schema = conflict.at("/content/application~1json/schema");
    assertThat(schema.at("/required/0").asText()).isEqualTo("error");
    assertThat(schema.at("/properties/reply/type").asText()).isEqualTo("string");
    assertThat(schema.at("/properties/task_run_id").isMissingNode()).isFalse();
  }

  @Test
  void theDocumentIsOpenApi31WithBearerAuth() {
    JsonNode doc = OpenApiEndpoint.load();
    assertThat(doc.get("openapi").asText()).isEqualTo("3.1.0");
    assertThat(doc.at("/components/securitySchemes/bearer/scheme").asText()).isEqualTo("bearer");
    assertThat(doc.at("/paths/~1healthz/get/security")).isEmpty();
  }
}
