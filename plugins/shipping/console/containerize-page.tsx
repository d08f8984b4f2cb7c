/** `/ship-order-manage/ship-order/containerize?id=`: pack a new ship order's lines into containers (menu page `ship-order-containerize`); lines change while the order is new. */
import { ContainerizePanel } from './containerize';
import { linesOpen, OrderScreen } from './order-page';

export default function ContainerizePage() {
  return (
    <OrderScreen titleKey="shipping.containerizeTitle" allowed={linesOpen} testId="ship-containerize-page">
      {(record, reload) => <ContainerizePanel record={record} onChanged={reload} />}
    </OrderScreen>
  );
}
