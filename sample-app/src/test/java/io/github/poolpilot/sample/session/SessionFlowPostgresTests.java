package io.github.poolpilot.sample.session;

import java.net.http.HttpResponse;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.poolpilot.sample.testsupport.RealPostgres;
import io.github.poolpilot.sample.testsupport.SampleApi;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the start, talk and stop flow over HTTP against a real PostgreSQL, with the
 * {@code postgres} profile ({@link RealPostgres} says where the database comes from).
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.talk.downstream-latency=5ms")
@ActiveProfiles("postgres")
@ExtendWith(RealPostgres.class)
@Import(RealPostgres.Database.class)
class SessionFlowPostgresTests {

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcClient jdbc;

	private SampleApi api;

	@BeforeEach
	void createClient() {
		this.api = new SampleApi(this.port);
	}

	@Test
	void runsOnPostgres() {
		assertThat(this.jdbc.sql("SELECT version()").query(String.class).single()).startsWith("PostgreSQL");
	}

	@Test
	void startTalkAndStopWriteTheSessionAndItsExchanges() {
		HttpResponse<String> started = this.api.start().join();
		assertThat(started.statusCode()).isEqualTo(200);
		assertThat(started.headers().firstValue("Content-Type")).hasValue("application/json");
		long sessionId = JsonPath.parse(started.body()).read("$.sessionId", Long.class);
		assertThat(this.jdbc.sql("SELECT stopped_at IS NULL FROM sample_session WHERE id = ?")
			.param(sessionId)
			.query(Boolean.class)
			.single()).isTrue();

		for (String message : new String[] { "hello", "again" }) {
			HttpResponse<String> talked = this.api.talk(sessionId, message).join();
			assertThat(talked.statusCode()).isEqualTo(200);
			DocumentContext reply = JsonPath.parse(talked.body());
			assertThat(reply.read("$.sessionId", Long.class)).isEqualTo(sessionId);
			assertThat(reply.read("$.reply", String.class)).isEqualTo("heard: " + message);
			assertThat(reply.read("$.downstreamMs", Long.class)).isGreaterThanOrEqualTo(5);
		}
		assertThat(this.jdbc.sql("SELECT message FROM sample_exchange WHERE session_id = ? ORDER BY id")
			.param(sessionId)
			.query(String.class)
			.list()).containsExactly("hello", "again");

		HttpResponse<String> stopped = this.api.stop(sessionId).join();
		assertThat(stopped.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(stopped.body()).read("$.exchanges", Integer.class)).isEqualTo(2);
		assertThat(this.jdbc.sql("SELECT stopped_at IS NOT NULL FROM sample_session WHERE id = ?")
			.param(sessionId)
			.query(Boolean.class)
			.single()).isTrue();
	}

	@Test
	void aStoppedSessionCanNeitherTalkNorStopAgain() {
		long sessionId = this.api.startSession();
		assertThat(this.api.stop(sessionId).join().statusCode()).isEqualTo(200);

		HttpResponse<String> talked = this.api.talk(sessionId, "too late").join();
		assertThat(talked.statusCode()).isEqualTo(409);
		assertThat(talked.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(this.api.stop(sessionId).join().statusCode()).isEqualTo(409);
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM sample_exchange WHERE session_id = ?")
			.param(sessionId)
			.query(Integer.class)
			.single()).isZero();
	}

	@Test
	void anUnknownSessionAnswers404AndAMissingIdAnswers400() {
		HttpResponse<String> unknown = this.api.stop(Long.MAX_VALUE).join();
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(unknown.body()).contains("No session " + Long.MAX_VALUE);
		assertThat(this.api.talk(Long.MAX_VALUE, "anyone?").join().statusCode()).isEqualTo(404);
		assertThat(this.api.post("/api/stop", "{}").join().statusCode()).isEqualTo(400);
	}

}
