import type { ChatProduct } from '@ohgood/contract/chat';
import { CHAT_MSG } from '@ohgood/contract/chat-rules';
import { won } from '../../../shared/format';
import styles from '../chat.module.css';

/** A recommended product: image, category, name, price as 12,345원 (like every other amount) and '상품 보기'. */
export function ProductCard({ product }: { product: ChatProduct }) {
  return (
    <article className={styles.product} aria-label={product.name} data-testid="chat-product">
      <img src={product.image} alt="" width={72} height={72} className={styles.productImage} loading="lazy" />
      <div className={styles.productBody}>
        <p className={styles.productCategory}>{product.category}</p>
        <h3 className={styles.productName}>{product.name}</h3>
        <p className={styles.productPrice}>{won(product.price)}</p>
      </div>
      <a className={styles.productLink} href={product.url} target="_blank" rel="noopener noreferrer">
        {CHAT_MSG.viewProduct}
        <span className="visually-hidden"> {product.name} (새 창)</span>
      </a>
    </article>
  );
}
