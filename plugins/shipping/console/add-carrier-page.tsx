/** `/ship-order-manage/ship-order/add-carrier?id=`: Add carriers to a new ship order (menu page `ship-order-add-carrier`). */
import { AddCarriersPanel } from './add-carriers';
import { linesOpen, OrderScreen } from './order-page';

export default function AddCarrierPage() {
  return (
    <OrderScreen titleKey="shipping.addCarriersTitle" allowed={linesOpen} testId="ship-add-carrier-page">
      {(record, reload) => <AddCarriersPanel record={record} onChanged={reload} />}
    </OrderScreen>
  );
}
