import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { RequestOf, ResponseOf, RpcDef } from '@cota/contracts';
import { Bus } from '../bus';
import { BusContext } from '../nest/bus-context';
import { BusServer } from '../nest/bus-server';
import { BusEventHandler, RpcHandler } from '../nest/decorators';

/**
 * Serves one handler the way services do: a `@RpcHandler` method of a Nest controller, in a Nest
 * microservice whose strategy is BusServer on the given bus. For the transport contract suite.
 */
export async function serveThroughNest<D extends RpcDef>(bus: Bus, def: D, handler: (request: RequestOf<D>) => Promise<ResponseOf<D>> | ResponseOf<D>): Promise<INestMicroservice> {
  @Controller()
  class Handlers {
    @RpcHandler(def)
    handle(request: RequestOf<D>) {
      return handler(request);
    }
  }
  @Module({ controllers: [Handlers] })
  class HandlersModule {}
  const app = await NestFactory.createMicroservice(HandlersModule, { strategy: new BusServer(bus), logger: false });
  await app.listen();
  return app;
}

/** Listens to an event pattern through an `@EventPattern` method (BusEventHandler), like serveThroughNest. */
export async function listenThroughNest(bus: Bus, pattern: string, handler: (subject: string, payload: unknown) => void): Promise<INestMicroservice> {
  @Controller()
  class Listeners {
    @BusEventHandler(pattern)
    on(@Payload() payload: unknown, @Ctx() ctx: BusContext) {
      handler(ctx.getSubject(), payload);
    }
  }
  @Module({ controllers: [Listeners] })
  class ListenersModule {}
  const app = await NestFactory.createMicroservice(ListenersModule, { strategy: new BusServer(bus), logger: false });
  await app.listen();
  return app;
}
