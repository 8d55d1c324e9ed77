package io.github.poolpilot.grpc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.Marshaller;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A gRPC service of three unary methods on strings, without generated code: {@code Block}
 * holds its thread until the test releases it, {@code Sleep} takes the given
 * milliseconds, {@code Ping} answers at once.
 *
 * @author poolpilot authors
 */
@SpringBootApplication
class GrpcPoolApplication {

	static final String SERVICE = "poolpilot.test.Work";

	static final MethodDescriptor<String, String> BLOCK = method("Block");

	static final MethodDescriptor<String, String> SLEEP = method("Sleep");

	static final MethodDescriptor<String, String> PING = method("Ping");

	static volatile CountDownLatch release = new CountDownLatch(1);

	/**
	 * The calls holding a thread in {@code Block} now.
	 */
	static final AtomicInteger blocked = new AtomicInteger();

	@Bean
	BindableService workService() {
		return () -> ServerServiceDefinition.builder(SERVICE)
			.addMethod(BLOCK, ServerCalls.asyncUnaryCall((request, response) -> {
				blocked.incrementAndGet();
				try {
					boolean released = release.await(60, TimeUnit.SECONDS);
					response.onNext(released ? "released" : "timed out");
					response.onCompleted();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					response.onError(ex);
				}
				finally {
					blocked.decrementAndGet();
				}
			}))
			.addMethod(SLEEP, ServerCalls.asyncUnaryCall((request, response) -> {
				try {
					Thread.sleep(Long.parseLong(request));
					response.onNext("slept " + request);
					response.onCompleted();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					response.onError(ex);
				}
			}))
			.addMethod(PING, ServerCalls.asyncUnaryCall((request, response) -> {
				response.onNext("pong");
				response.onCompleted();
			}))
			.build();
	}

	private static MethodDescriptor<String, String> method(String name) {
		return MethodDescriptor.<String, String>newBuilder()
			.setType(MethodType.UNARY)
			.setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
			.setRequestMarshaller(Utf8.INSTANCE)
			.setResponseMarshaller(Utf8.INSTANCE)
			.build();
	}

	private enum Utf8 implements Marshaller<String> {

		INSTANCE;

		@Override
		public InputStream stream(String value) {
			return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
		}

		@Override
		public String parse(InputStream stream) {
			try {
				return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
